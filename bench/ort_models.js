#!/usr/bin/env node
// The model benchmark set on ONNX Runtime (npm package onnxruntime-node, CPU execution
// provider): the ONNX peer of plugrt's `plugrt bench --dir <models dir>` rows.
//
// Runs the models bench/torch_models.py --onnx DIR exported: for each DIR/NAME.onnx.json manifest
// (DIR/NAME.onnx, weights as initializers; inputs DIR/NAME.in<i>.npy), one InferenceSession with
// intraOpNumThreads N, interOpNumThreads 1, graphOptimizationLevel 'all', executionMode
// 'sequential'; warm-up runs, then timed runs (at least --min-runs and --min-seconds, at most
// --max-runs), as bench/torch_bench.py times. Rows named by the model name, in torch_bench.py's
// JSON schema, with "peer": "onnxruntime".
//
// Usage: node bench/ort_models.js --dir DIR [--threads N] [--json FILE] [--check] [--no-time]
//            [--warmup N] [--min-runs N] [--max-runs N] [--min-seconds S] [NAME...]
//   --check   write ONNX Runtime's outputs to DIR/NAME.ort/out<i>.npy (as `plugrt run -o`)
//   NAME      models to run (default: every DIR/*.onnx.json)
// onnxruntime-node is looked up in $PLUGRT_ORT_DIR (an npm prefix; default <repo>/build/ort),
// where scripts/bench_setup.sh installs it (npm install --ignore-scripts: the CPU library,
// libonnxruntime.so.1, ships inside the package).
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');

const ROOT = path.dirname(__dirname);
const ORT_DIR = process.env.PLUGRT_ORT_DIR || path.join(ROOT, 'build', 'ort');

function usage(message) {
  if (message) console.error(`ort_models.js: ${message}`);
  console.error('usage: node bench/ort_models.js --dir DIR [--threads N] [--json FILE] [--check] ' +
                '[--no-time] [--warmup N] [--min-runs N] [--max-runs N] [--min-seconds S] [NAME...]');
  process.exit(2);
}

function parseArgs(argv) {
  const a = {dir: null, threads: os.cpus().length, json: null, check: false, time: true, warmup: 2,
             minRuns: 5, maxRuns: 50, minSeconds: 2.0, names: []};
  const value = (i) => (i + 1 < argv.length ? argv[i + 1] : usage(`${argv[i]} needs a value`));
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--dir') a.dir = value(i++);
    else if (arg === '--threads') a.threads = parseInt(value(i++), 10);
    else if (arg === '--json') a.json = value(i++);
    else if (arg === '--check') a.check = true;
    else if (arg === '--no-time') a.time = false;
    else if (arg === '--warmup') a.warmup = parseInt(value(i++), 10);
    else if (arg === '--min-runs') a.minRuns = parseInt(value(i++), 10);
    else if (arg === '--max-runs') a.maxRuns = parseInt(value(i++), 10);
    else if (arg === '--min-seconds') a.minSeconds = parseFloat(value(i++));
    else if (arg === '-h' || arg === '--help') usage();
    else if (arg.startsWith('-')) usage(`unknown option ${arg}`);
    else a.names.push(arg);
  }
  if (!a.dir) usage('--dir is required');
  return a;
}

// .npy files (version 1/2/3 headers, little-endian, C order): what numpy.save writes.
const NPY_TYPES = {
  '<f4': ['float32', Float32Array], '<f8': ['float64', Float64Array], '<i4': ['int32', Int32Array],
  '<i8': ['int64', BigInt64Array], '|i1': ['int8', Int8Array], '|u1': ['uint8', Uint8Array],
  '|b1': ['bool', Uint8Array], '<u8': ['uint64', BigUint64Array], '<i2': ['int16', Int16Array],
};

function readNpy(file) {
  const buf = fs.readFileSync(file);
  if (buf.toString('latin1', 0, 6) !== '\x93NUMPY') throw new Error(`${file}: not a .npy file`);
  const major = buf[6];
  const headerLen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = buf.toString('latin1', start, start + headerLen);
  const descr = /'descr':\s*'([^']+)'/.exec(header)[1];
  if (/'fortran_order':\s*True/.test(header)) throw new Error(`${file}: Fortran order`);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header)[1].split(',').filter((s) => s.trim()).map(Number);
  const type = NPY_TYPES[descr];
  if (!type) throw new Error(`${file}: dtype ${descr} not supported`);
  const [ortType, Array_] = type;
  const offset = start + headerLen;
  const bytes = new Uint8Array(buf.length - offset);
  bytes.set(buf.subarray(offset));  // an aligned copy
  const data = new Array_(bytes.buffer, 0, bytes.length / Array_.BYTES_PER_ELEMENT);
  return {type: ortType === 'bool' ? 'bool' : ortType, data, shape};
}

const DESCR = {float32: '<f4', float64: '<f8', int32: '<i4', int64: '<i8', int8: '|i1', uint8: '|u1',
               bool: '|b1', uint64: '<u8', int16: '<i2'};

function writeNpy(file, tensor) {
  const descr = DESCR[tensor.type];
  if (!descr) throw new Error(`output type ${tensor.type} not supported`);
  const dims = tensor.dims.map(String);
  const shape = dims.length === 1 ? `(${dims[0]},)` : `(${dims.join(', ')})`;
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shape}, }`;
  const total = 10 + header.length + 1;
  header += ' '.repeat((64 - (total % 64)) % 64) + '\n';
  const prefix = Buffer.alloc(10);
  prefix.write('\x93NUMPY', 0, 'latin1');
  prefix[6] = 1;
  prefix[7] = 0;
  prefix.writeUInt16LE(header.length, 8);
  const d = tensor.data;
  fs.writeFileSync(file, Buffer.concat([prefix, Buffer.from(header, 'latin1'),
                                        Buffer.from(d.buffer, d.byteOffset, d.byteLength)]));
}

function quantile(sorted, q) {  // linear interpolation, as numpy.percentile's default
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

function summary(name, ms, extra) {
  const s = [...ms].sort((x, y) => x - y);
  return Object.assign({name, median_ms: quantile(s, 0.5), min_ms: s[0], max_ms: s[s.length - 1],
                        runs: s.length, p10_ms: quantile(s, 0.1), p90_ms: quantile(s, 0.9)}, extra);
}

function cpuName() {
  try {
    const m = /^model name\s*:\s*(.*)$/m.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'));
    if (m) return m[1].trim();
  } catch (e) { /* not Linux */ }
  return os.cpus()[0] ? os.cpus()[0].model : 'unknown';
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  let ort;
  try {
    ort = require(path.join(ORT_DIR, 'node_modules', 'onnxruntime-node'));
  } catch (e) {
    console.error(`ort_models.js: cannot load onnxruntime-node from ${ORT_DIR} (run ` +
                  `scripts/bench_setup.sh, or set PLUGRT_ORT_DIR): ${e.message}`);
    return 1;
  }
  const manifests = fs.readdirSync(a.dir).filter((f) => f.endsWith('.onnx.json')).sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(a.dir, f), 'utf8')));
  const chosen = a.names.length ? manifests.filter((m) => a.names.includes(m.name)) : manifests;
  const unknown = a.names.filter((n) => !manifests.some((m) => m.name === n));
  if (unknown.length) {
    console.error(`ort_models.js: no ${unknown.map((n) => n + '.onnx.json').join(', ')} in ${a.dir} ` +
                  '(bench/torch_models.py --onnx DIR writes them)');
    return 2;
  }
  const options = {intraOpNumThreads: a.threads, interOpNumThreads: 1, graphOptimizationLevel: 'all',
                   executionMode: 'sequential', executionProviders: ['cpu']};
  const version = ort.env.versions ? ort.env.versions.node : 'unknown';
  console.log(`onnxruntime-node ${version}, ${a.threads} intra-op threads, ${cpuName()}`);
  const rows = [];
  for (const m of chosen) {
    const t0 = process.hrtime.bigint();
    const session = await ort.InferenceSession.create(path.join(a.dir, m.model), options);
    const loadMs = Number(process.hrtime.bigint() - t0) / 1e6;
    const feeds = {};
    for (const input of m.inputs) {
      const x = readNpy(path.join(a.dir, input.file));
      feeds[input.name] = new ort.Tensor(x.type, x.data, x.shape);
    }
    if (a.check) {
      const out = await session.run(feeds);
      const dir = path.join(a.dir, `${m.name}.ort`);
      fs.mkdirSync(dir, {recursive: true});
      m.outputs.forEach((o, i) => writeNpy(path.join(dir, `out${i}.npy`), out[o]));
    }
    if (a.time) {
      for (let i = 0; i < a.warmup; i++) await session.run(feeds);
      const ms = [];
      const start = process.hrtime.bigint();
      const elapsed = () => Number(process.hrtime.bigint() - start) / 1e9;
      while (ms.length < a.maxRuns && (ms.length < a.minRuns || elapsed() < a.minSeconds)) {
        const r0 = process.hrtime.bigint();
        await session.run(feeds);
        ms.push(Number(process.hrtime.bigint() - r0) / 1e6);
      }
      const row = summary(m.name, ms, {session_create_ms: loadMs});
      rows.push(row);
      console.log(`${m.name.padEnd(28)} median ${row.median_ms.toFixed(3).padStart(10)} ms  ` +
                  `p10 ${row.p10_ms.toFixed(3).padStart(10)}  p90 ${row.p90_ms.toFixed(3).padStart(10)}  ` +
                  `runs ${row.runs}`);
    }
    await session.release();
  }
  if (a.json) {
    const result = {peer: 'onnxruntime', onnxruntime_version: version, threads: a.threads,
                    cpu: cpuName(), node_version: process.version,
                    session_options: options, workloads: rows};
    fs.writeFileSync(a.json, JSON.stringify(result, null, 1) + '\n');
  }
  return 0;
}

main().then((code) => process.exit(code), (e) => {
  console.error(`ort_models.js: ${e.stack || e}`);
  process.exit(1);
});
