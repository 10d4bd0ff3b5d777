package gluonzoo;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * gluonzoo Java service over OpenCV DNN.
 *   java -cp ... gluonzoo.Serve MODEL.onnx [--host 127.0.0.1] [--port 8081] [--topk 5]   (HTTP)
 *   java -cp ... gluonzoo.Serve MODEL.onnx --predict IMAGE...                           (CLI, one JSON line each)
 *   java -cp ... gluonzoo.Serve MODEL.onnx [--threshold 0.5] --detect IMAGE...          (CLI, a detector)
 *   java -cp ... gluonzoo.Serve MODEL.onnx --segment IMAGE...                           (CLI, a segmenter)
 *   java -cp ... gluonzoo.Serve MODEL.onnx --recognize VIDEO...                         (CLI, an action recognizer)
 * POST /predict (image bytes) -> {"model", "backend", "topk": [{"index", "label", "prob"}]};
 * POST /detect[?threshold=0.5] -> [{"class", "score", "box": [x1, y1, x2, y2]}], best first;
 * POST /segment -> image/png, 8-bit grey, one class id a pixel, the picture's size; POST /recognize (a video file)
 * -> {"model", "backend", "topk": [...]}, the actions of its centred test clip; GET /health. The CLI's
 * --segment prints {"image", "width", "height", "classes": {id: pixel count}} a picture.
 * Every error is a JSON {"error": "..."}: an empty, undecodable or truncated body (image or video), a video
 * without frames, a bad threshold, an endpoint of
 * another task than the model's (/predict on a detector, /segment on a classifier...), a request that is not HTTP
 * or a body shorter than its Content-Length (after 5 s without data) a 400; an unknown path a 404; another method
 * on the five paths a 405; a body over 10 MB, an image whose header claims over 100,000,000 pixels (refused before
 * decoding) or a video over GLUONZOO_MAX_VIDEO_FRAMES (10,000) frames a 413. The server keeps serving; it
 * answers on 8 threads and runs one inference at a time (cv::dnn::Net is not thread-safe).
 */
public final class Serve {
    static final int MAX_IMAGE = 10 << 20;

    public static void main(String[] args) throws Exception {
        System.loadLibrary(org.opencv.core.Core.NATIVE_LIBRARY_NAME);
        if (args.length < 1) usage();
        String host = "127.0.0.1";
        int port = 8081, topk = 5;
        double threshold = 0.5;
        List<String> images = null;
        String mode = null;  // the CLI's: --predict, --detect, --segment or --recognize
        try {
            for (int i = 1; i < args.length; i++) {
                switch (args[i]) {
                    case "--host" -> host = args[++i];
                    case "--port" -> port = Integer.parseInt(args[++i]);
                    case "--topk" -> topk = Integer.parseInt(args[++i]);
                    case "--threshold" -> threshold = threshold(args[++i]);
                    case "--predict", "--detect", "--segment", "--recognize" -> {
                        mode = args[i];
                        images = List.of(args).subList(i + 1, args.length);
                        i = args.length;
                    }
                    default -> usage();
                }
            }
        } catch (Model.BadInput | RuntimeException e) {
            System.err.println("gluonzoo-java: error: " + e.getMessage());
            usage();
        }
        Model clf;
        try {
            clf = new Model(Path.of(args[0]));
        } catch (Exception e) {
            System.err.println("gluonzoo-java: error: cannot load " + args[0] + ": " + e.getMessage());
            System.exit(1);
            return;
        }
        if (images != null) {
            String right = clf.detector() ? "--detect" : clf.segmenter() ? "--segment"
                    : clf.recognizer() ? "--recognize" : "--predict";
            if (!right.equals(mode)) {
                System.err.println("gluonzoo-java: error: " + clf.model + " is a model for " + clf.task + ": use "
                                   + right);
                System.exit(1);
            }
            int failures = 0;
            for (String image : images) {
                try {  // one line each: unreadable, not an image / video, an image bomb (TooLarge)
                    byte[] data = readFile(image);
                    System.out.println(switch (right) {
                        case "--detect" -> json(clf.detect(data, threshold));
                        case "--segment" -> json(image, clf.segment(data));
                        case "--recognize" -> json(clf, clf.recognize(data, topk));
                        default -> json(clf, clf.classify(data, topk));
                    });
                } catch (Model.BadInput | IOException e) {
                    System.err.println("gluonzoo-java: error: " + image + ": " + e.getMessage());
                    failures++;
                }
            }
            System.exit(failures == 0 ? 0 : 1);
        }
        // the JDK's server has no read timeout: a connection whose request is not complete after 30 s is closed (a
        // backstop for a client that neither sends its body nor goes away; Reply answers a stalled body after 5 s)
        System.setProperty("sun.net.httpserver.maxReqTime", "30");
        HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 64);
        server.setExecutor(Executors.newFixedThreadPool(THREADS));
        final Model model = clf;
        final int k = topk;
        server.createContext("/", ex -> {  // every path: the JDK matches contexts by prefix (/predict/x, /healthz)
            try (ex) {
                handle(new Reply(ex), model, k);
            }
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> server.stop(0)));
        server.start();
        System.err.println("gluonzoo-java: " + clf.model + " on " + clf.backend() + " at http://" + host + ":" + port);
    }

    /** The paths served, each with its one method. */
    static final Map<String, String> ROUTES = Map.of("/predict", "POST", "/detect", "POST", "/segment", "POST",
                                                     "/recognize", "POST", "/health", "GET");
    static final int THREADS = 8;  // as the C++ service (httplib's pool); inference itself runs one at a time
    static final int READ_TIMEOUT_S = 5;  // as httplib's
    /** The methods a request line may name (as httplib's list): anything else is not HTTP, a 400. */
    static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE",
                                              "PATCH");

    private static void handle(Reply r, Model clf, int topk) throws IOException {
        HttpExchange ex = r.ex;
        String method = ex.getRequestMethod(), path = ex.getRequestURI().getRawPath(), allowed = ROUTES.get(path);
        // the JDK refuses most garbage itself (400); what still parses as a request line but is not one is ours
        if (!METHODS.contains(method) || !ex.getProtocol().matches("HTTP/1\\.[01]")) {
            r.send(400, error("bad request: not HTTP"));
            return;
        }
        if (allowed == null || !(allowed.equals(method) || allowed.equals("GET") && method.equals("HEAD"))) {
            if (readBody(r) == null) return;  // the client's body, read and dropped (else it stays on the connection)
            if (allowed != null) ex.getResponseHeaders().set("Allow", allowed);
            r.send(allowed == null ? 404 : 405, error(allowed == null
                    ? "no such path: POST /predict, /detect, /segment, /recognize or GET /health"
                    : method + " " + path + ": use " + allowed));
            return;
        }
        if (path.equals("/health")) {
            r.send(200, "{\"status\":\"ok\",\"model\":" + quote(clf.model) + ",\"backend\":"
                    + quote(clf.backend()) + ",\"task\":" + quote(clf.task) + "}");
            return;
        }
        byte[] body = readBody(r);
        if (body == null) return;
        try {
            if (body == TOO_BIG) {
                r.send(413, error("body over 10 MB"));
            } else if (path.equals("/predict")) {
                r.send(200, json(clf, clf.classify(body, topk)));
            } else if (path.equals("/segment")) {
                r.send(200, Model.png(clf.segment(body)), "image/png");
            } else if (path.equals("/recognize")) {
                r.send(200, json(clf, clf.recognize(body, topk)));
            } else {
                String value = query(ex.getRequestURI().getRawQuery(), "threshold");
                r.send(200, json(clf.detect(body, value == null ? 0.5 : threshold(value))));
            }
        } catch (Model.TooLarge e) {
            r.send(413, error(e.getMessage()));
        } catch (Model.BadInput e) {
            r.send(400, error(e.getMessage()));
        } catch (RuntimeException e) {
            r.send(500, error(String.valueOf(e.getMessage())));
        }
    }

    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread t = new Thread(task, "gluonzoo-read-timeout");
        t.setDaemon(true);
        return t;
    });

    /** What readBody returns for a body over MAX_IMAGE (read and dropped, so that the client gets its 413). */
    private static final byte[] TOO_BIG = new byte[0];

    /**
     * The request body, or TOO_BIG; null when it stalled (nothing came for READ_TIMEOUT_S: a Content-Length longer
     * than the body) and the timer has answered 400.
     */
    private static byte[] readBody(Reply r) throws IOException {
        String length = r.ex.getRequestHeaders().getFirst("Content-Length");
        long declared = length == null ? -1 : Long.parseLong(length);  // the JDK has checked it is a number >= 0
        ByteArrayOutputStream out = new ByteArrayOutputStream(declared >= 0 && declared <= MAX_IMAGE
                                                              ? (int) declared : 1 << 16);
        byte[] buf = new byte[1 << 16];
        long total = 0;
        InputStream in = r.ex.getRequestBody();
        try {
            while (true) {
                ScheduledFuture<?> stalled = TIMER.schedule(() -> r.send(400, error(
                        "body shorter than its Content-Length: nothing came for " + READ_TIMEOUT_S + " s")),
                        READ_TIMEOUT_S, TimeUnit.SECONDS);
                int n;
                try {
                    n = in.read(buf);
                } finally {
                    stalled.cancel(false);
                }
                if (n < 0) break;
                total += n;
                if (total <= MAX_IMAGE) out.write(buf, 0, n);
            }
        } catch (IOException e) {
            if (r.sent()) return null;  // the client went away after the timer's answer
            throw e;
        }
        if (r.sent()) return null;
        return total > MAX_IMAGE ? TOO_BIG : out.toByteArray();
    }

    /** One exchange's answer, sent once: by the handler, or by the read timer when the body stalled. */
    private static final class Reply {
        final HttpExchange ex;
        private boolean sent;

        Reply(HttpExchange ex) { this.ex = ex; }

        synchronized boolean sent() { return sent; }

        /** A JSON answer. */
        void send(int status, String body) {
            send(status, body.getBytes(StandardCharsets.UTF_8), "application/json");
        }

        /** Writes and flushes the answer; closing the exchange (which drains the request) is the handler's. */
        synchronized void send(int status, byte[] b, String type) {
            if (sent) return;
            sent = true;
            try {
                ex.getResponseHeaders().set("Content-Type", type);
                boolean head = ex.getRequestMethod().equals("HEAD");  // the headers only
                ex.sendResponseHeaders(status, head ? -1 : b.length);
                OutputStream os = ex.getResponseBody();
                if (!head) os.write(b);
                os.flush();
            } catch (IOException e) {  // the client is gone: nothing to answer
            }
        }
    }

    /** A CLI image's bytes; BadInput for a missing file or a directory (as the C++ CLI says). */
    private static byte[] readFile(String image) throws Model.BadInput {
        Path p = Path.of(image);
        if (!Files.exists(p)) throw new Model.BadInput("no such file");
        if (!Files.isRegularFile(p)) throw new Model.BadInput("not a file (a directory?)");
        try {
            return Files.readAllBytes(p);
        } catch (IOException e) {
            throw new Model.BadInput("cannot read it: " + e.getMessage());
        }
    }

    private static void usage() {
        System.err.println("usage: gluonzoo.Serve MODEL.onnx [--host H] [--port P] [--topk K] [--threshold T] "
                           + "[--predict IMAGE... | --detect IMAGE... | --segment IMAGE... | --recognize VIDEO...]");
        System.exit(2);
    }

    /** A detection threshold: a decimal number from 0 to 1 (as the C++ service reads it). */
    static double threshold(String value) throws Model.BadInput {
        double t = value.matches(DECIMAL) ? Double.parseDouble(value) : Double.NaN;
        if (!(t >= 0 && t <= 1)) throw new Model.BadInput("threshold must be a number from 0 to 1, got '" + value + "'");
        return t;
    }

    static final String DECIMAL = "[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?";

    /** The decoded value of `key` in a raw query string, or null. */
    static String query(String raw, String key) {
        if (raw == null) return null;
        for (String part : raw.split("&")) {
            int eq = part.indexOf('=');
            String k = java.net.URLDecoder.decode(eq < 0 ? part : part.substring(0, eq), StandardCharsets.UTF_8);
            if (k.equals(key)) return eq < 0 ? "" : java.net.URLDecoder.decode(part.substring(eq + 1), StandardCharsets.UTF_8);
        }
        return null;
    }

    static String json(Model clf, List<Model.Scored> top) {
        StringBuilder sb = new StringBuilder("{\"model\":").append(quote(clf.model)).append(",\"backend\":")
                .append(quote(clf.backend())).append(",\"topk\":[");
        for (int i = 0; i < top.size(); i++) {
            Model.Scored s = top.get(i);
            sb.append(i == 0 ? "" : ",").append("{\"index\":").append(s.index()).append(",\"label\":")
                    .append(quote(s.label())).append(",\"prob\":").append(s.prob()).append('}');
        }
        return sb.append("]}").toString();
    }

    static String json(List<Model.Detection> objects) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < objects.size(); i++) {
            Model.Detection d = objects.get(i);
            double[] b = d.box();
            sb.append(i == 0 ? "" : ",").append("{\"class\":").append(quote(d.label())).append(",\"score\":")
                    .append(d.score()).append(",\"box\":[").append(b[0]).append(',').append(b[1]).append(',')
                    .append(b[2]).append(',').append(b[3]).append("]}");
        }
        return sb.append(']').toString();
    }

    /** The CLI's line for a segmented picture: its size and the pixel count of each class id present. */
    static String json(String image, org.opencv.core.Mat ids) {
        int w = ids.cols(), h = ids.rows();
        byte[] px = new byte[w * h];
        ids.get(0, 0, px);
        ids.release();
        long[] counts = new long[256];
        for (byte b : px) counts[b & 0xff]++;
        StringBuilder sb = new StringBuilder("{\"image\":").append(quote(image)).append(",\"width\":").append(w)
                .append(",\"height\":").append(h).append(",\"classes\":{");
        String sep = "";
        for (int id = 0; id < counts.length; id++)
            if (counts[id] > 0) {
                sb.append(sep).append('"').append(id).append("\":").append(counts[id]);
                sep = ",";
            }
        return sb.append("}}").toString();
    }

    static String error(String msg) { return "{\"error\":" + quote(msg) + "}"; }

    static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                default -> { if (c < 0x20) sb.append(String.format("\\u%04x", (int) c)); else sb.append(c); }
            }
        }
        return sb.append('"').toString();
    }
}
