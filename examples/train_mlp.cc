// plugrt example: training a multilayer perceptron with the gradient tape on
// the eager layer. An MLP 784 -> 256 -> 256 -> 10 with ReLU learns a
// synthetic, learnable dataset generated here (no downloads): ten classes,
// each a fixed random pattern of 784 features, every sample its class's
// pattern plus Gaussian noise. The parameters are trainable variables, which
// a Tape watches as they are read; each step is eager ops it records, and its
// gradient gives SGD with momentum the parameters' updates.
//
//   build/bin/train_mlp [--epochs N] [--samples N] [--batch N] [--max-loss X] [--plugin PATH]
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
#include <string>
#include <vector>

#include "autodiff/tape.h"
#include "autodiff/tensor_math.h"
#include "eager/context.h"
#include "eager/op.h"
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
  std::string plugin = PLUGRT_EXAMPLE_PLUGIN_PATH;
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

StatusOr<Mlp> InitMlp(Context& ctx) {
  Random random(11);
  Mlp mlp;
  const int64_t shapes[3][2] = {{kIn, kHidden}, {kHidden, kHidden}, {kHidden, kClasses}};
  for (const auto& shape : shapes) {
    // He initialisation for ReLU layers.
    const double scale = std::sqrt(2.0 / static_cast<double>(shape[0]));
    std::vector<float> w(shape[0] * shape[1]);
    for (float& v : w) v = static_cast<float>(scale * random.Normal());
    PLUGRT_ASSIGN_OR_RETURN(Tensor wt, ctx.FromVector<float>(w, {shape[0], shape[1]}));
    PLUGRT_ASSIGN_OR_RETURN(Tensor bt, ctx.FromVector<float>(std::vector<float>(shape[1]),
                                                             {shape[1]}));
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

struct Batch {
  Tensor x, labels;
};

StatusOr<Batch> MakeBatch(Context& ctx, const Dataset& data, int64_t first, int64_t batch) {
  std::vector<float> x(data.x.begin() + first * kIn, data.x.begin() + (first + batch) * kIn);
  std::vector<float> onehot(batch * kClasses, 0.0f);
  for (int64_t s = 0; s < batch; ++s) onehot[s * kClasses + data.labels[first + s]] = 1.0f;
  Batch b;
  PLUGRT_ASSIGN_OR_RETURN(b.x, ctx.FromVector<float>(x, {batch, kIn}));
  PLUGRT_ASSIGN_OR_RETURN(b.labels, ctx.FromVector<float>(onehot, {batch, kClasses}));
  return b;
}

// One SGD-with-momentum step: v = momentum v + g; p = p - lr v. The loss.
StatusOr<float> Step(const TensorMath& math, Mlp& mlp, const Batch& batch, int64_t size,
                     const Options& options) {
  Tensor loss;
  std::vector<Tensor> values, grads;
  {
    Tape tape(math.context());  // watches the variables as Read reads them
    values = Read(mlp);
    PLUGRT_ASSIGN_OR_RETURN(Tensor logits, Logits(math, values, batch.x, size));
    PLUGRT_ASSIGN_OR_RETURN(loss, Loss(math, logits, batch.labels, size));
    PLUGRT_ASSIGN_OR_RETURN(grads, tape.Gradient({loss}, values));
  }
  for (size_t i = 0; i < mlp.params.size(); ++i) {
    PLUGRT_ASSIGN_OR_RETURN(Tensor kept, math.Scale(mlp.velocity[i], options.momentum));
    PLUGRT_ASSIGN_OR_RETURN(mlp.velocity[i], math.Add(kept, grads[i]));
    PLUGRT_ASSIGN_OR_RETURN(Tensor step, math.Scale(mlp.velocity[i], options.learning_rate));
    PLUGRT_ASSIGN_OR_RETURN(Tensor updated, math.Sub(values[i], step));
    PLUGRT_RETURN_IF_ERROR(mlp.params[i].Assign(updated));
  }
  PLUGRT_ASSIGN_OR_RETURN(std::vector<float> value, loss.ToVector<float>());
  return value[0];
}

StatusOr<double> Accuracy(const TensorMath& math, const Mlp& mlp, const Dataset& data,
                          const Options& options) {
  int64_t correct = 0, seen = 0;
  for (int64_t first = 0; first + options.batch <= options.samples; first += options.batch) {
    PLUGRT_ASSIGN_OR_RETURN(Batch batch, MakeBatch(math.context(), data, first, options.batch));
    PLUGRT_ASSIGN_OR_RETURN(Tensor logits, Logits(math, Read(mlp), batch.x, options.batch));
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
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<Context> ctx, Context::Create(options.plugin));
  const TensorMath math(*ctx);
  const Dataset data = MakeDataset(options.samples);
  PLUGRT_ASSIGN_OR_RETURN(Mlp mlp, InitMlp(*ctx));
  const int64_t steps_per_epoch = options.samples / options.batch;
  double last_loss = 0;
  int64_t steps = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int epoch = 1; epoch <= options.epochs; ++epoch) {
    double sum = 0;
    for (int64_t s = 0; s < steps_per_epoch; ++s) {
      PLUGRT_ASSIGN_OR_RETURN(Batch batch, MakeBatch(*ctx, data, s * options.batch, options.batch));
      PLUGRT_ASSIGN_OR_RETURN(float loss, Step(math, mlp, batch, options.batch, options));
      sum += loss;
      ++steps;
      ProgressBar(epoch, options.epochs, s + 1, steps_per_epoch, sum / static_cast<double>(s + 1));
    }
    last_loss = sum / static_cast<double>(steps_per_epoch);
    std::printf("\n");
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  PLUGRT_ASSIGN_OR_RETURN(double accuracy, Accuracy(math, mlp, data, options));
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
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!ParseOptions(argc, argv, options)) return 2;
  StatusOr<bool> ok = Train(options);
  if (!ok.ok()) {
    std::fprintf(stderr, "train_mlp: %s\n", ok.status().ToString().c_str());
    return 1;
  }
  return *ok ? 0 : 1;
}
