#include "cpu/kernels/batch_norm.h"

#include <cmath>

#include "cpu/kernels/compute_common.h"

namespace plugrt::cpu {
namespace {

// Checks the operand/feature vectors and returns the feature count.
StatusOr<int64_t> CheckShapes(const Tensor& operand, int64_t feature_index,
                              const std::vector<const Tensor*>& vectors) {
  if (!shlo::IsFloat(operand.type())) {
    return InvalidArgument("batch norm needs a floating-point operand");
  }
  if (feature_index < 0 || feature_index >= operand.rank()) {
    return InvalidArgument("feature_index ", feature_index, " is out of range for rank ",
                           operand.rank());
  }
  const int64_t features = operand.dims()[feature_index];
  for (const Tensor* v : vectors) {
    if (v->rank() != 1 || v->dims()[0] != features || v->type() != operand.type()) {
      return InvalidArgument("scale, offset, mean and variance must be 1-D of size ", features,
                             " and the operand's type");
    }
  }
  return features;
}

// The feature coordinate of each element: (i / stride) % features.
struct FeatureOf {
  int64_t stride, features;
  int64_t operator()(int64_t i) const { return (i / stride) % features; }
};

FeatureOf MakeFeatureOf(const Tensor& operand, int64_t feature_index, int64_t features) {
  return FeatureOf{RowMajorStrides(operand.dims())[feature_index], features};
}

}  // namespace

StatusOr<Tensor> BatchNormInference(const Tensor& operand, const Tensor& scale,
                                    const Tensor& offset, const Tensor& mean,
                                    const Tensor& variance, double epsilon,
                                    int64_t feature_index) {
  PLUGRT_ASSIGN_OR_RETURN(int64_t features,
                          CheckShapes(operand, feature_index, {&scale, &offset, &mean, &variance}));
  FeatureOf feature = MakeFeatureOf(operand, feature_index, features);
  std::vector<double> x = ToDomain<double>(operand);
  std::vector<double> s = ToDomain<double>(scale), o = ToDomain<double>(offset);
  std::vector<double> m = ToDomain<double>(mean), v = ToDomain<double>(variance);
  for (size_t i = 0; i < x.size(); ++i) {
    int64_t f = feature(static_cast<int64_t>(i));
    x[i] = (x[i] - m[f]) / std::sqrt(v[f] + epsilon) * s[f] + o[f];
  }
  return FromDomain<double>(operand.type(), operand.dims(), x);
}

StatusOr<std::vector<Tensor>> BatchNormTraining(const Tensor& operand, const Tensor& scale,
                                                const Tensor& offset, double epsilon,
                                                int64_t feature_index) {
  PLUGRT_ASSIGN_OR_RETURN(int64_t features,
                          CheckShapes(operand, feature_index, {&scale, &offset}));
  FeatureOf feature = MakeFeatureOf(operand, feature_index, features);
  std::vector<double> x = ToDomain<double>(operand);
  std::vector<double> s = ToDomain<double>(scale), o = ToDomain<double>(offset);
  std::vector<double> mean(static_cast<size_t>(features), 0.0), var(mean);
  const double count = features == 0 ? 0 : static_cast<double>(x.size()) / features;
  for (size_t i = 0; i < x.size(); ++i) mean[feature(static_cast<int64_t>(i))] += x[i];
  for (double& m : mean) m /= count;
  for (size_t i = 0; i < x.size(); ++i) {
    double d = x[i] - mean[feature(static_cast<int64_t>(i))];
    var[feature(static_cast<int64_t>(i))] += d * d;
  }
  for (double& v : var) v /= count;
  for (size_t i = 0; i < x.size(); ++i) {
    int64_t f = feature(static_cast<int64_t>(i));
    x[i] = (x[i] - mean[f]) / std::sqrt(var[f] + epsilon) * s[f] + o[f];
  }
  std::vector<Tensor> out;
  out.push_back(FromDomain<double>(operand.type(), operand.dims(), x));
  out.push_back(FromDomain<double>(operand.type(), {features}, mean));
  out.push_back(FromDomain<double>(operand.type(), {features}, var));
  return out;
}

StatusOr<std::vector<Tensor>> BatchNormGrad(const Tensor& operand, const Tensor& scale,
                                            const Tensor& mean, const Tensor& variance,
                                            const Tensor& grad_output, double epsilon,
                                            int64_t feature_index) {
  PLUGRT_ASSIGN_OR_RETURN(int64_t features,
                          CheckShapes(operand, feature_index, {&scale, &mean, &variance}));
  if (grad_output.dims() != operand.dims() || grad_output.type() != operand.type()) {
    return InvalidArgument("grad_output must have the operand's shape and type");
  }
  FeatureOf feature = MakeFeatureOf(operand, feature_index, features);
  std::vector<double> x = ToDomain<double>(operand), g = ToDomain<double>(grad_output);
  std::vector<double> s = ToDomain<double>(scale), m = ToDomain<double>(mean);
  std::vector<double> v = ToDomain<double>(variance);
  const double count = features == 0 ? 0 : static_cast<double>(x.size()) / features;
  std::vector<double> sum_g(static_cast<size_t>(features), 0.0), sum_gx(sum_g);
  for (size_t i = 0; i < x.size(); ++i) {
    int64_t f = feature(static_cast<int64_t>(i));
    sum_g[f] += g[i];
    sum_gx[f] += g[i] * (x[i] - m[f]);
  }
  // With x^ = (x - mean) / stddev:
  //   grad_scale = sum(g * x^), grad_offset = sum(g),
  //   grad_x = scale / stddev * (g - sum(g) / N - x^ * sum(g * x^) / N).
  std::vector<double> grad_x(x.size()), grad_scale(sum_g.size()), grad_offset(sum_g);
  for (int64_t f = 0; f < features; ++f) grad_scale[f] = sum_gx[f] / std::sqrt(v[f] + epsilon);
  for (size_t i = 0; i < x.size(); ++i) {
    int64_t f = feature(static_cast<int64_t>(i));
    double stddev = std::sqrt(v[f] + epsilon);
    double xhat = (x[i] - m[f]) / stddev;
    grad_x[i] = s[f] / stddev * (g[i] - sum_g[f] / count - xhat * grad_scale[f] / count);
  }
  std::vector<Tensor> out;
  out.push_back(FromDomain<double>(operand.type(), operand.dims(), grad_x));
  out.push_back(FromDomain<double>(operand.type(), {features}, grad_scale));
  out.push_back(FromDomain<double>(operand.type(), {features}, grad_offset));
  return out;
}

}  // namespace plugrt::cpu
