#include "model.hpp"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <numeric>
#include <sstream>

#include <nlohmann/json.hpp>
#include <onnxruntime_cxx_api.h>
#include <opencv2/dnn.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "onnx_meta.hpp"

namespace gz {
namespace {
std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, sep)) out.push_back(item);
  return out;
}

std::vector<float> floats(const std::string &s) {
  std::vector<float> out;
  for (auto &x : split(s, ',')) out.push_back(std::stof(x));
  return out;
}

class OrtBackend : public Backend {
 public:
  OrtBackend(const std::string &path, int threads, std::map<std::string, std::string> *props)
      : env_(ORT_LOGGING_LEVEL_WARNING, "gluonzoo") {
    Ort::SessionOptions opts;
    opts.SetIntraOpNumThreads(threads);
    opts.SetInterOpNumThreads(1);
    session_ = std::make_unique<Ort::Session>(env_, path.c_str(), opts);
    Ort::AllocatorWithDefaultOptions alloc;
    input_ = session_->GetInputNameAllocated(0, alloc).get();
    output_ = session_->GetOutputNameAllocated(0, alloc).get();
    // ONNX Runtime's own metadata API: the same props the Python exporter wrote
    Ort::ModelMetadata md = session_->GetModelMetadata();
    for (auto &key : md.GetCustomMetadataMapKeysAllocated(alloc)) {
      (*props)[key.get()] = md.LookupCustomMetadataMapAllocated(key.get(), alloc).get();
    }
  }
  std::vector<float> run(const cv::Mat &input) override {
    auto mem = Ort::MemoryInfo::CreateCpu(OrtArenaAllocator, OrtMemTypeDefault);
    std::vector<int64_t> shape(input.size.p, input.size.p + input.dims);
    const char *in_names[] = {input_.c_str()};
    const char *out_names[] = {output_.c_str()};
    Ort::Value x = input.depth() == CV_8U
        ? Ort::Value::CreateTensor<uint8_t>(mem, const_cast<uint8_t *>(input.ptr<uint8_t>()), input.total(),
                                            shape.data(), shape.size())
        : Ort::Value::CreateTensor<float>(mem, const_cast<float *>(input.ptr<float>()), input.total(),
                                          shape.data(), shape.size());
    auto out = session_->Run(Ort::RunOptions{nullptr}, in_names, &x, 1, out_names, 1);
    const float *p = out[0].GetTensorData<float>();
    size_t n = out[0].GetTensorTypeAndShapeInfo().GetElementCount();
    return std::vector<float>(p, p + n);
  }
  std::string name() const override { return "onnxruntime " + std::string(Ort::GetVersionString()); }

 private:
  Ort::Env env_;
  std::unique_ptr<Ort::Session> session_;
  std::string input_, output_;
};

class OpenCvBackend : public Backend {
 public:
  OpenCvBackend(const std::string &path, int threads) : net_(cv::dnn::readNetFromONNX(path)) {
    cv::setNumThreads(threads);
    net_.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
    net_.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
  }
  std::vector<float> run(const cv::Mat &input) override {
    std::lock_guard<std::mutex> lock(mu_);  // cv::dnn::Net is not thread-safe; the HTTP server is
    net_.setInput(input);
    cv::Mat out = net_.forward();
    cv::Mat flat = out.reshape(1, 1);
    return std::vector<float>(flat.ptr<float>(), flat.ptr<float>() + flat.total());
  }
  std::string name() const override { return "opencv-dnn " + std::string(CV_VERSION); }

 private:
  cv::dnn::Net net_;
  std::mutex mu_;
};
}  // namespace

Meta Meta::from_props(const std::map<std::string, std::string> &p) {
  Meta m;
  auto get = [&](const std::string &k, const std::string &d = "") {
    auto it = p.find("gluonzoo." + k);
    return it == p.end() ? d : it->second;
  };
  if (get("model").empty()) throw std::runtime_error("not a gluonzoo export: no gluonzoo.model metadata");
  m.model = get("model");
  m.weights = get("weights");
  m.sha1 = get("sha1");
  auto ints = [](const std::string &v) {
    std::vector<int> out;
    for (auto &x : split(v, ',')) out.push_back(std::stoi(x));
    return out;
  };
  // a record without resize/crop (e.g. CIFAR's 32x32): the graph's own input size, short side resized to it
  std::vector<int> shape = get("input_shape").empty() ? std::vector<int>{} : ints(get("input_shape"));
  bool nhwc = get("preprocess_in_graph") == "1";
  if (shape.size() == 4) m.crop = nhwc ? std::vector<int>{shape[1], shape[2]} : std::vector<int>{shape[2], shape[3]};
  if (!get("preprocess.crop").empty()) m.crop = ints(get("preprocess.crop"));
  if (m.crop.size() == 1) m.crop.push_back(m.crop[0]);
  m.resize = get("preprocess.resize").empty() ? std::vector<int>{m.crop[0]} : ints(get("preprocess.resize"));
  m.interp = get("preprocess.interp") == "None" ? "" : get("preprocess.interp");
  if (!get("preprocess.mean").empty()) m.mean = floats(get("preprocess.mean"));
  if (!get("preprocess.std").empty()) m.std = floats(get("preprocess.std"));
  if (!get("preprocess.scale").empty()) m.scale = std::stof(get("preprocess.scale"));
  if (!get("preprocess.color").empty()) m.color = get("preprocess.color");
  if (m.color != "RGB" && m.color != "BGR" && m.color != "grey")
    throw std::runtime_error("unknown gluonzoo.preprocess.color '" + m.color + "': RGB, BGR or grey");
  size_t channels = m.color == "grey" ? 1 : 3;
  if (m.mean.size() != channels || m.std.size() != channels)
    throw std::runtime_error("gluonzoo.preprocess mean/std do not have one value per channel of " + m.color);
  m.in_graph = get("preprocess_in_graph") == "1";
  m.classes = split(get("classes"), '\n');
  return m;
}

cv::Mat decode_rgb(const std::string &bytes) {
  if (bytes.empty()) throw BadInput("empty body: POST the bytes of a JPEG/PNG/BMP image");
  // libjpeg decodes a truncated JPEG into a gray-padded image with only a warning: refuse it instead
  if (bytes.size() >= 2 && uint8_t(bytes[0]) == 0xFF && uint8_t(bytes[1]) == 0xD8) {
    size_t tail = bytes.size() > 64 ? bytes.size() - 64 : 0;
    if (bytes.find("\xFF\xD9", tail) == std::string::npos)
      throw BadInput("truncated JPEG: no end-of-image marker");
  }
  std::vector<uint8_t> buf(bytes.begin(), bytes.end());
  cv::Mat bgr = cv::imdecode(buf, cv::IMREAD_COLOR);
  if (bgr.empty()) throw BadInput("body is not an image OpenCV can decode (JPEG/PNG/BMP/...)");
  cv::Mat rgb;
  cv::cvtColor(bgr, rgb, cv::COLOR_BGR2RGB);
  return rgb;
}

cv::Mat preprocess(const cv::Mat &decoded_rgb, const Meta &m) {
  cv::Mat rgb = decoded_rgb;  // in the net's color: grey is OpenCV's luma (0.299 R + 0.587 G + 0.114 B), as Python's
  if (m.color == "grey") cv::cvtColor(decoded_rgb, rgb, cv::COLOR_RGB2GRAY);
  if (m.color == "BGR") cv::cvtColor(decoded_rgb, rgb, cv::COLOR_RGB2BGR);
  const int C = rgb.channels();
  int h = rgb.rows, w = rgb.cols, nh, nw;
  if (m.resize.size() == 1) {  // short side; the long one truncated, as MXNet's Resize(keep_ratio) does
    int s = m.resize[0];
    if (h <= w) { nh = s; nw = int(double(w) * s / h); }
    else { nw = s; nh = int(double(h) * s / w); }
  } else {
    nh = m.resize[0];
    nw = m.resize[1];
  }
  static const std::map<std::string, int> kInterp{{"area", cv::INTER_AREA}, {"linear", cv::INTER_LINEAR},
                                                   {"cubic", cv::INTER_CUBIC}, {"nearest", cv::INTER_NEAREST}};
  int flag = m.interp.empty() ? (int64_t(nh) * nw < int64_t(h) * w ? cv::INTER_AREA : cv::INTER_LINEAR)
                              : kInterp.at(m.interp);
  cv::Mat resized;
  cv::resize(rgb, resized, cv::Size(nw, nh), 0, 0, flag);
  int ch = m.crop[0], cw = m.crop[1];
  if (nh < ch || nw < cw) throw BadInput("image too small to crop after resizing");
  cv::Mat crop = resized(cv::Rect((nw - cw) / 2, (nh - ch) / 2, cw, ch)).clone();
  if (m.in_graph) {  // 1xHxWxC uint8, the graph normalizes
    int shape[] = {1, ch, cw, C};
    return cv::Mat(4, shape, CV_8U, crop.data).clone();
  }
  int shape[] = {1, C, ch, cw};
  cv::Mat blob(4, shape, CV_32F);
  for (int c = 0; c < C; ++c) {
    float *dst = blob.ptr<float>(0, c);
    for (int y = 0; y < ch; ++y) {
      const uint8_t *row = crop.ptr<uint8_t>(y);
      for (int x = 0; x < cw; ++x) {
        float v = float(row[C * x + c]) * m.scale;
        dst[y * cw + x] = (v - m.mean[c]) / m.std[c];
      }
    }
  }
  return blob;
}

Classifier::Classifier(const std::string &path, const std::string &backend, int threads) {
  std::map<std::string, std::string> props;
  if (backend == "ort") {
    backend_ = std::make_unique<OrtBackend>(path, threads, &props);
  } else if (backend == "opencv") {
    props = read_onnx_metadata(path);
    backend_ = std::make_unique<OpenCvBackend>(path, threads);
  } else {
    throw std::runtime_error("unknown backend '" + backend + "': ort or opencv");
  }
  meta_ = Meta::from_props(props);
}

std::vector<Scored> Classifier::classify(const std::string &bytes, int topk) const {
  cv::Mat x = preprocess(decode_rgb(bytes), meta_);
  std::vector<float> logits = backend_->run(x);
  double mx = *std::max_element(logits.begin(), logits.end()), sum = 0;
  std::vector<double> p(logits.size());
  for (size_t i = 0; i < p.size(); ++i) sum += p[i] = std::exp(double(logits[i]) - mx);
  for (auto &v : p) v /= sum;
  std::vector<int> idx(p.size());
  std::iota(idx.begin(), idx.end(), 0);
  topk = std::min<int>(topk, int(idx.size()));
  std::partial_sort(idx.begin(), idx.begin() + topk, idx.end(), [&](int a, int b) { return p[a] > p[b]; });
  std::vector<Scored> out;
  for (int k = 0; k < topk; ++k) {
    int i = idx[k];
    out.push_back({i, i < int(meta_.classes.size()) ? meta_.classes[i] : std::to_string(i), p[i]});
  }
  return out;
}

std::string to_json(const Classifier &c, const std::vector<Scored> &top) {
  nlohmann::json j;
  j["model"] = c.meta().model;
  j["backend"] = c.backend();
  j["topk"] = nlohmann::json::array();
  for (auto &s : top) j["topk"].push_back({{"index", s.index}, {"label", s.label}, {"prob", s.prob}});
  return j.dump();
}

}  // namespace gz
