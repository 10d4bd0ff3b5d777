// gluonzoo-serve MODEL.onnx [--backend ort|opencv] [--host 127.0.0.1] [--port 8080] [--topk 5] [--threads 1]
//   POST /predict  body: image bytes      -> 200 {"model", "backend", "topk": [{"index", "label", "prob"}]}
//   POST /detect[?threshold=0.5]          -> 200 [{"class", "score", "box": [x1, y1, x2, y2]}], best first
//   POST /segment  body: image bytes      -> 200 image/png: 8-bit grey, one class id a pixel, the picture's size
//   POST /recognize  body: a video file   -> 200 {"model", "backend", "topk": [...]}: its centred test clip's actions
//   GET  /health                          -> 200 {"status": "ok", "model", "backend", "task"}
// Every error is a JSON {"error": "..."}: a body that is empty, not an image, or a truncated JPEG, a bad threshold,
// a video that is not one, truncated, or has no frame, an endpoint of another task than the model's (/predict on
// a detector, /segment on a classifier...), a request
// that is not HTTP or a body shorter than its Content-Length (after the 5 s read timeout) a 400; an unknown path a
// 404; another method on the five paths a 405; a body over 10 MB, an image whose header claims over 100,000,000
// pixels (refused before decoding) or a video over GLUONZOO_MAX_VIDEO_FRAMES (10,000) frames, a 413. The server keeps serving; httplib answers on a pool of max(8, cores - 1)
// threads.
#include <malloc.h>

#include <csignal>
#include <cstdlib>
#include <iostream>
#include <map>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "model.hpp"

namespace {
constexpr size_t kMaxImage = 10u << 20;   // what /predict accepts
constexpr size_t kMaxBody = 64u << 20;    // what httplib reads at all (answering 413 itself above it)
// the paths served, each with its one method
const std::map<std::string, std::string> kRoutes{
    {"/predict", "POST"}, {"/detect", "POST"}, {"/segment", "POST"}, {"/recognize", "POST"}, {"/health", "GET"}};
httplib::Server *g_server = nullptr;

void error(httplib::Response &res, int status, const std::string &msg) {
  res.status = status;
  // `replace`: a message may quote bytes that are not UTF-8 (a path such as /%ff)
  res.set_content(nlohmann::json{{"error", msg}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
                  "application/json");
}

// One image request: the body-size limit, then `run` (which returns the answer, of `type`), its errors as 413 / 400
// / 500.
template <typename Run>
void answer(const httplib::Request &req, httplib::Response &res, Run run, const char *type = "application/json") {
  if (req.body.size() > kMaxImage) return error(res, 413, "body over 10 MB");
  try {
    res.set_content(run(), type);
  } catch (const gz::TooLarge &e) {
    error(res, 413, e.what());
  } catch (const gz::BadInput &e) {
    error(res, 400, e.what());
  } catch (const std::exception &e) {
    error(res, 500, e.what());
  }
}

// httplib's own error answers (no route, a request line it cannot parse, a body over kMaxBody or shorter than its
// Content-Length) come with an empty body: give them a JSON one. A path we serve asked with another method is
// "no route" to httplib (404): it is a 405 here.
void on_error(const httplib::Request &req, httplib::Response &res) {
  if (!res.body.empty()) return;  // our handlers' own errors
  auto route = kRoutes.find(req.path);
  if (res.status == 404 && route != kRoutes.end()) {
    res.set_header("Allow", route->second);
    return error(res, 405, req.method + " " + req.path + ": use " + route->second);
  }
  switch (res.status) {
    case 404: return error(res, 404, "no such path: POST /predict, /detect, /segment, /recognize or GET /health");
    case 400: return error(res, 400, "bad request: not HTTP, or a body shorter than its Content-Length");
    case 413: return error(res, 413, "body over 64 MB");
    default: return error(res, res.status, "HTTP " + std::to_string(res.status));
  }
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
  std::unique_ptr<gz::Model> clf;
  try {
    clf = std::make_unique<gz::Model>(model, backend, threads);
  } catch (const std::exception &e) {
    std::cerr << "gluonzoo-serve: error: cannot load " << model << ": " << e.what() << "\n";
    return 1;
  }
  // Bodies up to 64 MB are read on up to 8 threads at once. glibc's malloc raises its mmap threshold to the largest
  // block freed (up to 32 MB), so after one 11 MB body every later one came from the per-thread arenas, which keep
  // freed memory: RSS grew 77-95 MB under the load test (1-3 MB with this). A fixed 1 MB threshold mmaps every large
  // buffer (bodies, decoded pictures) and gives it back on free.
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
  httplib::Server svr;
  g_server = &svr;
  svr.set_payload_max_length(kMaxBody);
  svr.set_error_handler(on_error);
  svr.Get("/health", [&](const httplib::Request &, httplib::Response &res) {
    res.set_content(nlohmann::json{{"status", "ok"}, {"model", clf->meta().model}, {"backend", clf->backend()},
                                   {"task", clf->meta().task}}.dump(), "application/json");
  });
  svr.Post("/predict", [&](const httplib::Request &req, httplib::Response &res) {
    answer(req, res, [&] { return gz::to_json(*clf, clf->classify(req.body, topk)); });
  });
  svr.Post("/detect", [&](const httplib::Request &req, httplib::Response &res) {
    answer(req, res, [&] {
      double threshold = req.has_param("threshold") ? gz::parse_threshold(req.get_param_value("threshold")) : 0.5;
      return gz::to_json(clf->detect(req.body, threshold));
    });
  });
  svr.Post("/recognize", [&](const httplib::Request &req, httplib::Response &res) {
    answer(req, res, [&] { return gz::to_json(*clf, clf->recognize(req.body, topk)); });
  });
  svr.Post("/segment", [&](const httplib::Request &req, httplib::Response &res) {
    answer(req, res, [&] { return gz::encode_png(clf->segment(req.body)); }, "image/png");
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
