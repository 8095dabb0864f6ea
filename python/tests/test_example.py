"""The example in examples/python/ runs as written."""

import os
import pathlib
import runpy


def test_tour_runs(capsys):
    examples = pathlib.Path(os.environ.get(
        "PLUGRT_EXAMPLES_DIR",
        pathlib.Path(__file__).resolve().parents[2] / "examples" / "python"))
    runpy.run_path(str(examples / "tour.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "tanh(x @ w)" in out
    assert "plugrt.Error: INVALID_ARGUMENT" in out
