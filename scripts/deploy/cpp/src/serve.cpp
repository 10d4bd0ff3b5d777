// gluonzoo-serve MODEL.onnx [--backend ort|opencv] [--host 127.0.0.1] [--port 8080] [--topk 5] [--threads 1]
//   POST /predict  body: image bytes      -> 200 {"model", "backend", "topk": [{"index", "label", "prob"}]}
//   GET  /health                          -> 200 {"status": "ok", "model", "backend"}
// A body that is empty, not an image, or a truncated JPEG is a 400; over 10 MB a 413; the server keeps serving.
#include <csignal>
#include <cstdlib>
#include <iostream>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "model.hpp"

namespace {
constexpr size_t kMaxImage = 10u << 20;   // what /predict accepts
constexpr size_t kMaxBody = 64u << 20;    // what httplib reads at all (answering 413 itself above it)
httplib::Server *g_server = nullptr;

void error(httplib::Response &res, int status, const std::string &msg) {
  res.status = status;
  res.set_content(nlohmann::json{{"error", msg}}.dump(), "application/json");
}
}  // namespace

int main(int argc, char **argv) {
  std::string model, backend = "ort", host = "127.0.0.1";
  int port = 8080, topk = 5, threads = 1;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) { std::cerr << "gluonzoo-serve: error: " << a << " needs a value\n"; std::exit(2); }
      return argv[++i];
    };
    if (a == "--backend") backend = next();
    else if (a == "--host") host = next();
    else if (a == "--port") port = std::stoi(next());
    else if (a == "--topk") topk = std::stoi(next());
    else if (a == "--threads") threads = std::stoi(next());
    else if (a[0] != '-' && model.empty()) model = a;
    else { std::cerr << "usage: gluonzoo-serve MODEL.onnx [--backend ort|opencv] [--host H] [--port P]\n"; return 2; }
  }
  if (model.empty()) { std::cerr << "usage: gluonzoo-serve MODEL.onnx [--backend ort|opencv]\n"; return 2; }
  std::unique_ptr<gz::Classifier> clf;
  try {
    clf = std::make_unique<gz::Classifier>(model, backend, threads);
  } catch (const std::exception &e) {
    std::cerr << "gluonzoo-serve: error: cannot load " << model << ": " << e.what() << "\n";
    return 1;
  }
  httplib::Server svr;
  g_server = &svr;
  svr.set_payload_max_length(kMaxBody);
  svr.Get("/health", [&](const httplib::Request &, httplib::Response &res) {
    res.set_content(nlohmann::json{{"status", "ok"}, {"model", clf->meta().model}, {"backend", clf->backend()}}
                        .dump(), "application/json");
  });
  svr.Post("/predict", [&](const httplib::Request &req, httplib::Response &res) {
    if (req.body.size() > kMaxImage) return error(res, 413, "image body over 10 MB");
    try {
      res.set_content(gz::to_json(*clf, clf->classify(req.body, topk)), "application/json");
    } catch (const gz::BadInput &e) {
      error(res, 400, e.what());
    } catch (const std::exception &e) {
      error(res, 500, e.what());
    }
  });
  std::signal(SIGTERM, [](int) { if (g_server) g_server->stop(); });
  std::signal(SIGINT, [](int) { if (g_server) g_server->stop(); });
  std::cerr << "gluonzoo-serve: " << clf->meta().model << " on " << clf->backend() << " at http://" << host << ":"
            << port << std::endl;
  if (!svr.listen(host.c_str(), port)) {
    std::cerr << "gluonzoo-serve: error: cannot listen on " << host << ":" << port << "\n";
    return 1;
  }
  return 0;
}
