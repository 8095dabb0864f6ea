"""Plugins, clients, devices and memories."""

import os

import numpy as np
import pytest

import plugrt


def test_default_client_uses_the_built_in_cpu_plugin():
    client = plugrt.default_client()
    assert client is plugrt.default_client()
    assert client.platform_name == "cpu"
    assert os.path.exists(plugrt.default_plugin_path())
    assert client.plugin.path == plugrt.default_plugin_path()


def test_plugin_by_path_reports_version_and_attributes():
    plugin = plugrt.load_plugin(plugrt.default_plugin_path())
    assert plugin.api_version == (plugrt.PJRT_API_MAJOR, plugrt.PJRT_API_MINOR)
    assert isinstance(plugin.attributes, dict)
    client = plugrt.Client(plugin)
    assert client.plugin.path == plugin.path
    # A path (str or os.PathLike) works as well as a Plugin.
    import pathlib
    assert plugrt.Client(pathlib.Path(plugin.path)).platform_name == "cpu"


def test_missing_plugin_is_not_found():
    with pytest.raises(plugrt.Error) as info:
        plugrt.Client("/nonexistent/libno_such_plugin.so")
    assert info.value.code == plugrt.ErrorCode.NOT_FOUND
    assert "libno_such_plugin.so" in info.value.message


def test_create_options_reach_the_plugin():
    assert len(plugrt.Client(cpu_device_count=3).devices()) == 3
    with pytest.raises(plugrt.Error) as info:
        plugrt.Client(cpu_device_count=0)
    assert info.value.code == plugrt.ErrorCode.INVALID_ARGUMENT
    with pytest.raises(plugrt.Error) as info:
        plugrt.Client(cpu_device_count=object())
    assert "cpu_device_count" in str(info.value)


def test_devices_and_memories(client):
    devices = client.devices()
    assert [d.id for d in devices] == [0, 1]
    assert devices == client.addressable_devices()
    assert client.lookup_device(1) == devices[1]
    assert hash(client.lookup_device(1)) == hash(devices[1])
    device = devices[0]
    assert device.is_addressable
    assert device.client is client
    memories = device.memories()
    kinds = {m.kind for m in memories}
    assert device.default_memory().kind in kinds
    assert "pinned_host" in kinds
    assert device in memories[0].addressable_by_devices()
    assert set(client.memories()) >= set(memories)
    stats = device.memory_stats()
    assert stats["bytes_in_use"] >= 0
    with pytest.raises(plugrt.Error) as info:
        client.lookup_device(99)
    assert info.value.code == plugrt.ErrorCode.NOT_FOUND


def test_objects_keep_their_client_alive():
    device = plugrt.Client(cpu_device_count=2).devices()[1]
    # The client object is gone from Python; the device still answers.
    assert device.id == 1
    assert device.client.platform_name == "cpu"


@pytest.fixture(scope="module")
def example_client():
    path = os.environ.get("PLUGRT_EXAMPLE_PLUGIN")
    if not path:
        pytest.skip("PLUGRT_EXAMPLE_PLUGIN (build/lib/libplugrt_example_plugin.so) not given")
    return plugrt.Client(path)


def test_another_plugin_through_the_same_api(example_client):
    # The SDK's one-file example plugin: one device, buffers, no compiler.
    assert example_client.platform_name == "example"
    assert [d.kind for d in example_client.devices()] == ["example"]
    buffer = example_client.buffer(np.arange(4, dtype=np.int32))
    np.testing.assert_array_equal(buffer.to_numpy(), [0, 1, 2, 3])
    np.testing.assert_array_equal(plugrt.from_dlpack(np.arange(3.0), buffer.device).to_numpy(),
                                  [0.0, 1.0, 2.0])
    with pytest.raises(plugrt.Error) as info:
        example_client.compile("func.func @main() { return }")
    assert info.value.code == plugrt.ErrorCode.UNIMPLEMENTED
