// plugrt example: training a multilayer perceptron with the gradient tape on
// the eager layer. An MLP 784 -> 256 -> 256 -> 10 with ReLU learns a
// synthetic, learnable dataset generated here (no downloads): ten classes,
// each a fixed random pattern of 784 features, every sample its class's
// pattern plus Gaussian noise. The parameters are trainable variables, which
// a Tape watches as they are read; each step is eager ops it records, and its
// gradient gives SGD with momentum the parameters' updates.
//
//   build/bin/train_mlp [--epochs N] [--samples N] [--batch N] [--max-loss X]
//                       [--devices N] [--compiled] [--plugin PATH]
//
// --devices N (N > 1): data-parallel training over N CPU devices. The
// parameters live on a parallel device (eager/parallel_device.h) over
// cpu:0..cpu:N-1, a copy on each; each device takes its share of the batch,
// computes its gradients, and the gradients are averaged across devices with
// stablehlo.all_reduce before every device applies the same update.
// --compiled: the gradients come from a compiled gradient program instead of
// the tape: the loss written as a StableHLO function (LossProgram below),
// differentiated once by autodiff::GradientProgram (what `plugrt grad` runs),
// loaded into the context and run as one op per step, which the plugin
// compiles and fuses whole.
//
// Prints the loss per epoch with a progress bar, the steps per second and the
// final accuracy; exits non-zero if the last epoch's mean loss is not below
// --max-loss (default 0.25; the loss starts near ln 10 = 2.3) or the accuracy
// is below 90%.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "autodiff/gradient_program.h"
#include "autodiff/tape.h"
#include "autodiff/tensor_math.h"
#include "eager/context.h"
#include "eager/op.h"
#include "eager/parallel_device.h"
#include "eager/variable.h"

using namespace plugrt;
using plugrt::autodiff::Tape;
using plugrt::autodiff::TensorMath;
using plugrt::eager::Context;
using plugrt::eager::Tensor;

namespace {

constexpr int64_t kIn = 784, kHidden = 256, kClasses = 10;

struct Options {
  int epochs = 4;
  int64_t samples = 2048;
  int64_t batch = 128;
  double max_loss = 0.25;
  double learning_rate = 0.05;
  double momentum = 0.9;
  int devices = 1;
  bool compiled = false;
  std::string plugin = PLUGRT_EXAMPLE_PLUGIN_PATH;
};

// Where the parameters live and how a batch is spread: one physical device,
// or a parallel device over several (`placement` names it).
struct Setup {
  int devices = 1;
  std::string placement;  // empty: the default device
  int64_t local_batch = 0;  // samples per device in a step
};

// A small deterministic generator (the dataset and the initial weights are
// the same on every run).
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}
  double Uniform() {  // [0, 1)
    state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(state_ >> 11) / 9007199254740992.0;
  }
  double Normal() {
    const double u = Uniform() + 1e-12, v = Uniform();
    return std::sqrt(-2.0 * std::log(u)) * std::cos(6.283185307179586 * v);
  }

 private:
  uint64_t state_;
};

struct Dataset {
  std::vector<float> x;       // samples x 784
  std::vector<int> labels;    // samples
};

Dataset MakeDataset(int64_t samples) {
  Random random(7);
  // Each class: a pattern of +-1 features; samples add noise of the same
  // size, so no single feature tells the classes apart.
  std::vector<float> patterns(kClasses * kIn);
  for (float& p : patterns) p = random.Uniform() < 0.5 ? -1.0f : 1.0f;
  Dataset data;
  data.x.resize(samples * kIn);
  data.labels.resize(samples);
  for (int64_t s = 0; s < samples; ++s) {
    const int label = static_cast<int>(random.Uniform() * kClasses);
    data.labels[s] = label;
    for (int64_t f = 0; f < kIn; ++f) {
      data.x[s * kIn + f] = 0.25f * patterns[label * kIn + f] + static_cast<float>(random.Normal());
    }
  }
  return data;
}

struct Mlp {
  std::vector<eager::Variable> params;  // w1, b1, w2, b2, w3, b3
  std::vector<Tensor> velocity;         // the momentum of each
};

// The parameters' values now (watched by the tapes alive on this thread).
std::vector<Tensor> Read(const Mlp& mlp) {
  std::vector<Tensor> values;
  for (const eager::Variable& p : mlp.params) values.push_back(p.Value());
  return values;
}

StatusOr<Mlp> InitMlp(Context& ctx, const Setup& setup) {
  Random random(11);
  Mlp mlp;
  const int64_t shapes[3][2] = {{kIn, kHidden}, {kHidden, kHidden}, {kHidden, kClasses}};
  // On a parallel device every component starts from the same values.
  auto place = [&](Tensor t) -> StatusOr<Tensor> {
    if (setup.placement.empty()) return t;
    return ctx.CopyToDevice(t, setup.placement);
  };
  for (const auto& shape : shapes) {
    // He initialisation for ReLU layers.
    const double scale = std::sqrt(2.0 / static_cast<double>(shape[0]));
    std::vector<float> w(shape[0] * shape[1]);
    for (float& v : w) v = static_cast<float>(scale * random.Normal());
    PLUGRT_ASSIGN_OR_RETURN(Tensor wt, ctx.FromVector<float>(w, {shape[0], shape[1]}));
    PLUGRT_ASSIGN_OR_RETURN(Tensor bt, ctx.FromVector<float>(std::vector<float>(shape[1]),
                                                             {shape[1]}));
    PLUGRT_ASSIGN_OR_RETURN(wt, place(wt));
    PLUGRT_ASSIGN_OR_RETURN(bt, place(bt));
    const std::string layer = std::to_string(mlp.params.size() / 2 + 1);
    PLUGRT_ASSIGN_OR_RETURN(eager::Variable w_var, eager::Variable::Create("w" + layer, wt));
    PLUGRT_ASSIGN_OR_RETURN(eager::Variable b_var, eager::Variable::Create("b" + layer, bt));
    mlp.params.push_back(w_var);
    mlp.params.push_back(b_var);
  }
  TensorMath math(ctx);
  for (const Tensor& p : Read(mlp)) {
    PLUGRT_ASSIGN_OR_RETURN(Tensor v, math.ZerosLike(p));
    mlp.velocity.push_back(v);
  }
  return mlp;
}

// x [B, in] w [in, out] + b.
StatusOr<Tensor> Dense(const TensorMath& math, const Tensor& x, const Tensor& w, const Tensor& b,
                       int64_t batch) {
  PLUGRT_ASSIGN_OR_RETURN(Tensor xw, math.DotGeneral(x, w, {}, {}, {1}, {0}));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> dims, w.dims());
  PLUGRT_ASSIGN_OR_RETURN(Tensor bb, math.Broadcast(b, {batch, dims[1]}, {1}));
  return math.Add(xw, bb);
}

StatusOr<Tensor> Logits(const TensorMath& math, const std::vector<Tensor>& params, const Tensor& x,
                        int64_t batch) {
  PLUGRT_ASSIGN_OR_RETURN(Tensor z1, Dense(math, x, params[0], params[1], batch));
  PLUGRT_ASSIGN_OR_RETURN(Tensor zeros, math.ZerosLike(z1));
  PLUGRT_ASSIGN_OR_RETURN(Tensor h1, math.Run1("stablehlo.maximum", {z1, zeros}));
  PLUGRT_ASSIGN_OR_RETURN(Tensor z2, Dense(math, h1, params[2], params[3], batch));
  PLUGRT_ASSIGN_OR_RETURN(Tensor h2, math.Run1("stablehlo.maximum", {z2, zeros}));
  return Dense(math, h2, params[4], params[5], batch);
}

// Softmax cross-entropy against one-hot `labels`, averaged over the batch:
// -sum(labels * (s - log(sum(exp(s))))) / B with s = logits - rowmax. The
// row max is a constant to the gradient (the loss does not depend on it).
StatusOr<Tensor> Loss(const TensorMath& math, const Tensor& logits, const Tensor& labels,
                      int64_t batch) {
  Context& ctx = math.context();
  PLUGRT_ASSIGN_OR_RETURN(Tensor held, autodiff::StopGradient(ctx, logits));
  PLUGRT_ASSIGN_OR_RETURN(Tensor low, ctx.FromVector<float>({-1e30f}, {}));
  eager::Op max(ctx, "stablehlo.reduce");
  PLUGRT_RETURN_IF_ERROR(max.SetAttr("dimensions", std::vector<int64_t>{1}));
  PLUGRT_RETURN_IF_ERROR(max.SetAttr("body", eager::Reducer::kMax));
  PLUGRT_RETURN_IF_ERROR(max.AddInputList({held}));
  PLUGRT_RETURN_IF_ERROR(max.AddInputList({low}));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> row_max, max.Execute());
  PLUGRT_ASSIGN_OR_RETURN(Tensor row_max_b, math.Broadcast(row_max[0], {batch, kClasses}, {0}));
  PLUGRT_ASSIGN_OR_RETURN(Tensor shifted, math.Sub(logits, row_max_b));
  PLUGRT_ASSIGN_OR_RETURN(Tensor e, math.Run1("stablehlo.exponential", {shifted}));
  PLUGRT_ASSIGN_OR_RETURN(Tensor sum, math.ReduceSum(e, {1}));
  PLUGRT_ASSIGN_OR_RETURN(Tensor log_sum, math.Run1("stablehlo.log", {sum}));
  PLUGRT_ASSIGN_OR_RETURN(Tensor log_sum_b, math.Broadcast(log_sum, {batch, kClasses}, {0}));
  PLUGRT_ASSIGN_OR_RETURN(Tensor log_probs, math.Sub(shifted, log_sum_b));
  PLUGRT_ASSIGN_OR_RETURN(Tensor weighted, math.Mul(labels, log_probs));
  PLUGRT_ASSIGN_OR_RETURN(Tensor total, math.SumAll(weighted));
  return math.Scale(total, -1.0 / static_cast<double>(batch));
}

// The same loss as Loss above, as a StableHLO function of (x, labels, w1, b1,
// w2, b2, w3, b3) for a batch of `batch`: what --compiled differentiates.
std::string LossProgram(int64_t batch) {
  const std::string b = std::to_string(batch), in = std::to_string(kIn),
                    h = std::to_string(kHidden), c = std::to_string(kClasses);
  const std::string bh = "tensor<" + b + "x" + h + "xf32>", bc = "tensor<" + b + "x" + c + "xf32>";
  char inv_batch[32];
  std::snprintf(inv_batch, sizeof inv_batch, "%.9e", -1.0 / static_cast<double>(batch));
  auto dense = [&](const std::string& out, const std::string& x, const std::string& x_type,
                   const std::string& w, const std::string& w_type, const std::string& bias,
                   const std::string& width, const std::string& result_type) {
    return "    %" + out + "_xw = stablehlo.dot_general %" + x + ", %" + w +
           ", contracting_dims = [1] x [0] : (" + x_type + ", " + w_type + ") -> " +
           result_type + "\n    %" + out + "_b = stablehlo.broadcast_in_dim %" + bias +
           ", dims = [1] : (tensor<" + width + "xf32>) -> " + result_type + "\n    %" + out +
           " = stablehlo.add %" + out + "_xw, %" + out + "_b : " + result_type + "\n";
  };
  std::string text = "func.func public @mlp_loss(%x: tensor<" + b + "x" + in +
                     "xf32>, %labels: " + bc + ", %w1: tensor<" + in + "x" + h +
                     "xf32>, %b1: tensor<" + h + "xf32>, %w2: tensor<" + h + "x" + h +
                     "xf32>, %b2: tensor<" + h + "xf32>, %w3: tensor<" + h + "x" + c +
                     "xf32>, %b3: tensor<" + c + "xf32>) -> tensor<f32> {\n";
  text += "    %zero = stablehlo.constant dense<0.0> : tensor<f32>\n";
  text += "    %low = stablehlo.constant dense<-1.0e30> : tensor<f32>\n";
  text += std::string("    %neg_inv_batch = stablehlo.constant dense<") + inv_batch +
          "> : tensor<f32>\n";
  text += "    %zeros_h = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> " + bh +
          "\n";
  text += dense("z1", "x", "tensor<" + b + "x" + in + "xf32>", "w1",
                "tensor<" + in + "x" + h + "xf32>", "b1", h, bh);
  text += "    %h1 = stablehlo.maximum %z1, %zeros_h : " + bh + "\n";
  text += dense("z2", "h1", bh, "w2", "tensor<" + h + "x" + h + "xf32>", "b2", h, bh);
  text += "    %h2 = stablehlo.maximum %z2, %zeros_h : " + bh + "\n";
  text += dense("logits", "h2", bh, "w3", "tensor<" + h + "x" + c + "xf32>", "b3", c, bc);
  text += "    %row_max = stablehlo.reduce(%logits init: %low) applies stablehlo.maximum across "
          "dimensions = [1] : (" + bc + ", tensor<f32>) -> tensor<" + b + "xf32>\n";
  text += "    %row_max_b = stablehlo.broadcast_in_dim %row_max, dims = [0] : (tensor<" + b +
          "xf32>) -> " + bc + "\n";
  text += "    %shifted = stablehlo.subtract %logits, %row_max_b : " + bc + "\n";
  text += "    %e = stablehlo.exponential %shifted : " + bc + "\n";
  text += "    %sum = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = "
          "[1] : (" + bc + ", tensor<f32>) -> tensor<" + b + "xf32>\n";
  text += "    %log_sum = stablehlo.log %sum : tensor<" + b + "xf32>\n";
  text += "    %log_sum_b = stablehlo.broadcast_in_dim %log_sum, dims = [0] : (tensor<" + b +
          "xf32>) -> " + bc + "\n";
  text += "    %log_probs = stablehlo.subtract %shifted, %log_sum_b : " + bc + "\n";
  text += "    %weighted = stablehlo.multiply %labels, %log_probs : " + bc + "\n";
  text += "    %total = stablehlo.reduce(%weighted init: %zero) applies stablehlo.add across "
          "dimensions = [0, 1] : (" + bc + ", tensor<f32>) -> tensor<f32>\n";
  text += "    %loss = stablehlo.multiply %total, %neg_inv_batch : tensor<f32>\n";
  text += "    return %loss : tensor<f32>\n}\n";
  return text;
}

// The op name the compiled gradient program is loaded under.
constexpr const char* kCompiledStep = "mlp_value_and_grad";

// Writes the gradient program of LossProgram(local batch) with respect to
// the six parameters (loss first: value and gradients) and loads it into the
// context as the op kCompiledStep.
Status LoadCompiledGradients(Context& ctx, const Setup& setup) {
  autodiff::GradientProgramOptions options;
  options.entry = "mlp_loss";
  options.wrt = {2, 3, 4, 5, 6, 7};
  options.with_value = true;
  options.name = kCompiledStep;
  PLUGRT_ASSIGN_OR_RETURN(std::string program,
                          autodiff::GradientProgram(ctx, LossProgram(setup.local_batch), options));
  return ctx.LoadFunctions(program);
}

struct Batch {
  Tensor x, labels;
};

// Samples [first, first + setup.devices * setup.local_batch): on one device,
// or split into consecutive shares packed onto the parallel device.
StatusOr<Batch> MakeBatch(Context& ctx, const Setup& setup, const Dataset& data, int64_t first) {
  std::vector<Tensor> xs, labels;
  for (int d = 0; d < setup.devices; ++d) {
    const int64_t start = first + d * setup.local_batch, n = setup.local_batch;
    std::vector<float> x(data.x.begin() + start * kIn, data.x.begin() + (start + n) * kIn);
    std::vector<float> onehot(n * kClasses, 0.0f);
    for (int64_t s = 0; s < n; ++s) onehot[s * kClasses + data.labels[start + s]] = 1.0f;
    const std::string device = setup.devices > 1 ? "cpu:" + std::to_string(d) : "";
    std::optional<std::string> on;
    if (!device.empty()) on = device;
    PLUGRT_ASSIGN_OR_RETURN(Tensor xt, ctx.FromVector<float>(x, {n, kIn}, on));
    PLUGRT_ASSIGN_OR_RETURN(Tensor lt, ctx.FromVector<float>(onehot, {n, kClasses}, on));
    xs.push_back(xt);
    labels.push_back(lt);
  }
  if (setup.devices == 1) return Batch{xs[0], labels[0]};
  Batch b;
  PLUGRT_ASSIGN_OR_RETURN(b.x, ctx.Pack(xs, setup.placement));
  PLUGRT_ASSIGN_OR_RETURN(b.labels, ctx.Pack(labels, setup.placement));
  return b;
}

// The mean over the devices of a parallel tensor's components, on every
// component (stablehlo.all_reduce over one group of all devices).
StatusOr<Tensor> AllReduceMean(const TensorMath& math, const Setup& setup, const Tensor& t) {
  eager::DenseTensor groups{eager::TensorType{PJRT_Buffer_Type_S64, {1, setup.devices}}, {}};
  std::vector<int64_t> ids(setup.devices);
  for (int d = 0; d < setup.devices; ++d) ids[d] = d;
  groups.data.resize(ids.size() * sizeof(int64_t));
  std::memcpy(groups.data.data(), ids.data(), groups.data.size());
  PLUGRT_ASSIGN_OR_RETURN(Tensor sum,
                          math.Run1("stablehlo.all_reduce", {t},
                                    {{"replica_groups", groups},
                                     {"computation", eager::Reducer::kAdd}}));
  return math.Scale(sum, 1.0 / static_cast<double>(setup.devices));
}

// A scalar f32 tensor's value; the mean of its components on a parallel device.
StatusOr<float> ScalarValue(const Setup& setup, const Tensor& t) {
  std::vector<Tensor> parts = {t};
  if (setup.devices > 1) {
    PLUGRT_ASSIGN_OR_RETURN(parts, eager::UnpackParallel(t));
  }
  float sum = 0;
  for (const Tensor& part : parts) {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<float> value, part.ToVector<float>());
    sum += value[0];
  }
  return sum / static_cast<float>(parts.size());
}

// One SGD-with-momentum step: v = momentum v + g; p = p - lr v, with g the
// gradients of this device's share of the batch, averaged over the devices.
// The loss (averaged likewise).
StatusOr<float> Step(const TensorMath& math, const Setup& setup, Mlp& mlp, const Batch& batch,
                     const Options& options) {
  Context& ctx = math.context();
  Tensor loss;
  std::vector<Tensor> values, grads;
  if (options.compiled) {
    values = Read(mlp);
    eager::Op step(ctx, kCompiledStep);
    PLUGRT_RETURN_IF_ERROR(step.AddInput(batch.x));
    PLUGRT_RETURN_IF_ERROR(step.AddInput(batch.labels));
    for (const Tensor& v : values) PLUGRT_RETURN_IF_ERROR(step.AddInput(v));
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> outputs, step.Execute());
    loss = outputs[0];
    grads.assign(outputs.begin() + 1, outputs.end());
  } else {
    Tape tape(ctx);  // watches the variables as Read reads them
    values = Read(mlp);
    PLUGRT_ASSIGN_OR_RETURN(Tensor logits, Logits(math, values, batch.x, setup.local_batch));
    PLUGRT_ASSIGN_OR_RETURN(loss, Loss(math, logits, batch.labels, setup.local_batch));
    PLUGRT_ASSIGN_OR_RETURN(grads, tape.Gradient({loss}, values));
  }
  for (size_t i = 0; i < mlp.params.size(); ++i) {
    Tensor g = grads[i];
    if (setup.devices > 1) {
      PLUGRT_ASSIGN_OR_RETURN(g, AllReduceMean(math, setup, g));
    }
    PLUGRT_ASSIGN_OR_RETURN(Tensor kept, math.Scale(mlp.velocity[i], options.momentum));
    PLUGRT_ASSIGN_OR_RETURN(mlp.velocity[i], math.Add(kept, g));
    PLUGRT_ASSIGN_OR_RETURN(Tensor step, math.Scale(mlp.velocity[i], options.learning_rate));
    PLUGRT_ASSIGN_OR_RETURN(Tensor updated, math.Sub(values[i], step));
    PLUGRT_RETURN_IF_ERROR(mlp.params[i].Assign(updated));
  }
  return ScalarValue(setup, loss);
}

// Accuracy over the dataset with the parameters of the first device.
StatusOr<double> Accuracy(const TensorMath& math, const Setup& setup, const Mlp& mlp,
                          const Dataset& data, const Options& options) {
  std::vector<Tensor> params = Read(mlp);
  if (setup.devices > 1) {
    for (Tensor& p : params) {
      PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> parts, eager::UnpackParallel(p));
      p = parts[0];
    }
  }
  Setup one;
  one.local_batch = options.batch;
  int64_t correct = 0, seen = 0;
  for (int64_t first = 0; first + options.batch <= options.samples; first += options.batch) {
    PLUGRT_ASSIGN_OR_RETURN(Batch batch, MakeBatch(math.context(), one, data, first));
    PLUGRT_ASSIGN_OR_RETURN(Tensor logits, Logits(math, params, batch.x, options.batch));
    PLUGRT_ASSIGN_OR_RETURN(std::vector<float> values, logits.ToVector<float>());
    for (int64_t s = 0; s < options.batch; ++s) {
      int best = 0;
      for (int k = 1; k < kClasses; ++k) {
        if (values[s * kClasses + k] > values[s * kClasses + best]) best = k;
      }
      correct += best == data.labels[first + s];
      ++seen;
    }
  }
  return static_cast<double>(correct) / static_cast<double>(seen);
}

void ProgressBar(int epoch, int epochs, int64_t done, int64_t total, double loss) {
  constexpr int kWidth = 30;
  const int filled = static_cast<int>(kWidth * done / total);
  std::printf("\repoch %d/%d [%s%s] %lld/%lld loss %.4f", epoch, epochs,
              std::string(filled, '#').c_str(), std::string(kWidth - filled, '.').c_str(),
              static_cast<long long>(done), static_cast<long long>(total), loss);
  std::fflush(stdout);
}

StatusOr<bool> Train(const Options& options) {
  ClientOptions client_options;
  if (options.devices > 1) {
    client_options.create_options.push_back(
        NamedValue{"cpu_device_count", static_cast<int64_t>(options.devices)});
  }
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<Context> ctx,
                          Context::Create(options.plugin, client_options));
  Setup setup;
  setup.devices = options.devices;
  setup.local_batch = options.batch / options.devices;
  if (options.devices > 1) {
    std::vector<std::string> components;
    for (int d = 0; d < options.devices; ++d) components.push_back("cpu:" + std::to_string(d));
    setup.placement = "data_parallel";
    PLUGRT_RETURN_IF_ERROR(
        eager::RegisterParallelDevice(*ctx, setup.placement, components).status());
  }
  if (options.compiled) PLUGRT_RETURN_IF_ERROR(LoadCompiledGradients(*ctx, setup));
  const TensorMath math(*ctx);
  const Dataset data = MakeDataset(options.samples);
  PLUGRT_ASSIGN_OR_RETURN(Mlp mlp, InitMlp(*ctx, setup));
  const int64_t steps_per_epoch = options.samples / options.batch;
  double last_loss = 0;
  int64_t steps = 0;
  std::printf("training on %d device%s, gradients from %s\n", options.devices,
              options.devices > 1 ? "s (data-parallel)" : "",
              options.compiled ? "a compiled gradient program" : "the tape");
  const auto start = std::chrono::steady_clock::now();
  for (int epoch = 1; epoch <= options.epochs; ++epoch) {
    double sum = 0;
    for (int64_t s = 0; s < steps_per_epoch; ++s) {
      PLUGRT_ASSIGN_OR_RETURN(Batch batch, MakeBatch(*ctx, setup, data, s * options.batch));
      PLUGRT_ASSIGN_OR_RETURN(float loss, Step(math, setup, mlp, batch, options));
      sum += loss;
      ++steps;
      ProgressBar(epoch, options.epochs, s + 1, steps_per_epoch, sum / static_cast<double>(s + 1));
    }
    last_loss = sum / static_cast<double>(steps_per_epoch);
    std::printf("\n");
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  PLUGRT_ASSIGN_OR_RETURN(double accuracy, Accuracy(math, setup, mlp, data, options));
  std::printf("%lld steps in %.2f s: %.1f steps/s; final loss %.4f, accuracy %.1f%%\n",
              static_cast<long long>(steps), seconds, static_cast<double>(steps) / seconds,
              last_loss, 100.0 * accuracy);
  bool ok = true;
  if (!(last_loss < options.max_loss)) {
    std::fprintf(stderr, "train_mlp: the last epoch's loss %.4f is not below %.4f\n", last_loss,
                 options.max_loss);
    ok = false;
  }
  if (accuracy < 0.9) {
    std::fprintf(stderr, "train_mlp: accuracy %.1f%% is below 90%%\n", 100.0 * accuracy);
    ok = false;
  }
  return ok;
}

bool ParseOptions(int argc, char** argv, Options& options) {
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--compiled") {
      options.compiled = true;
      continue;
    }
    if (i + 1 >= argc) {
      std::fprintf(stderr, "train_mlp: %s needs a value\n", flag.c_str());
      return false;
    }
    const char* value = argv[++i];
    char* end = nullptr;
    if (flag == "--epochs") {
      options.epochs = static_cast<int>(std::strtol(value, &end, 10));
    } else if (flag == "--samples") {
      options.samples = std::strtoll(value, &end, 10);
    } else if (flag == "--batch") {
      options.batch = std::strtoll(value, &end, 10);
    } else if (flag == "--devices") {
      options.devices = static_cast<int>(std::strtol(value, &end, 10));
    } else if (flag == "--max-loss") {
      options.max_loss = std::strtod(value, &end);
    } else if (flag == "--plugin") {
      options.plugin = value;
      continue;
    } else {
      std::fprintf(stderr, "train_mlp: unknown flag %s\n", flag.c_str());
      return false;
    }
    if (end == value || *end != '\0') {
      std::fprintf(stderr, "train_mlp: %s: not a number: %s\n", flag.c_str(), value);
      return false;
    }
  }
  if (options.epochs < 1 || options.batch < 1 || options.samples < options.batch) {
    std::fprintf(stderr, "train_mlp: needs --epochs >= 1 and --samples >= --batch >= 1\n");
    return false;
  }
  if (options.devices < 1 || options.batch % options.devices != 0) {
    std::fprintf(stderr, "train_mlp: needs --devices >= 1 dividing --batch\n");
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!ParseOptions(argc, argv, options)) return 2;
  StatusOr<bool> ok = Train(options);
  if (!ok.ok()) {
    std::fprintf(stderr, "\ntrain_mlp: %s\n", ok.status().ToString().c_str());
    return 1;
  }
  return *ok ? 0 : 1;
}
