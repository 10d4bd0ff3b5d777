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
import java.util.concurrent.Executors;

/**
 * gluonzoo Java service over OpenCV DNN.
 *   java -cp ... gluonzoo.Serve MODEL.onnx [--host 127.0.0.1] [--port 8081] [--topk 5]   (HTTP)
 *   java -cp ... gluonzoo.Serve MODEL.onnx --predict IMAGE...                           (CLI, one JSON line each)
 * POST /predict (image bytes) -> {"model", "backend", "topk": [{"index", "label", "prob"}]}; GET /health.
 * Empty, undecodable or truncated bodies are 400, bodies over 10 MB 413; the server keeps serving.
 */
public final class Serve {
    static final int MAX_IMAGE = 10 << 20;

    public static void main(String[] args) throws Exception {
        System.loadLibrary(org.opencv.core.Core.NATIVE_LIBRARY_NAME);
        if (args.length < 1) usage();
        String host = "127.0.0.1";
        int port = 8081, topk = 5;
        List<String> predict = null;
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--host" -> host = args[++i];
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--topk" -> topk = Integer.parseInt(args[++i]);
                case "--predict" -> { predict = List.of(args).subList(i + 1, args.length); i = args.length; }
                default -> usage();
            }
        }
        Classifier clf;
        try {
            clf = new Classifier(Path.of(args[0]));
        } catch (Exception e) {
            System.err.println("gluonzoo-java: error: cannot load " + args[0] + ": " + e.getMessage());
            System.exit(1);
            return;
        }
        if (predict != null) {
            int failures = 0;
            for (String image : predict) {
                try {
                    System.out.println(json(clf, clf.classify(Files.readAllBytes(Path.of(image)), topk)));
                } catch (Classifier.BadInput | IOException e) {
                    System.err.println("gluonzoo-java: error: " + image + ": " + e.getMessage());
                    failures++;
                }
            }
            System.exit(failures == 0 ? 0 : 1);
        }
        final int k = topk;
        HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 64);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/health", ex -> {
            if (!ex.getRequestMethod().equals("GET")) { send(ex, 405, error("use GET /health")); return; }
            send(ex, 200, "{\"status\":\"ok\",\"model\":" + quote(clf.model) + ",\"backend\":"
                    + quote(clf.backend()) + "}");
        });
        server.createContext("/predict", ex -> {
            try {
                if (!ex.getRequestMethod().equals("POST")) { drain(ex.getRequestBody()); send(ex, 405, error("use POST /predict")); return; }
                byte[] body = readCapped(ex.getRequestBody());
                if (body == null) { send(ex, 413, error("image body over 10 MB")); return; }
                send(ex, 200, json(clf, clf.classify(body, k)));
            } catch (Classifier.BadInput e) {
                send(ex, 400, error(e.getMessage()));
            } catch (RuntimeException e) {
                send(ex, 500, error(String.valueOf(e.getMessage())));
            }
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> server.stop(0)));
        server.start();
        System.err.println("gluonzoo-java: " + clf.model + " on " + clf.backend() + " at http://" + host + ":" + port);
    }

    private static void usage() {
        System.err.println("usage: gluonzoo.Serve MODEL.onnx [--host H] [--port P] [--topk K] [--predict IMAGE...]");
        System.exit(2);
    }

    /** The whole body, or null (after reading and discarding the rest, so the client gets the 413) when too big. */
    private static byte[] readCapped(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[1 << 16];
        long total = 0;
        for (int n; (n = in.read(buf)) > 0; ) {
            total += n;
            if (total <= MAX_IMAGE) out.write(buf, 0, n);
        }
        return total > MAX_IMAGE ? null : out.toByteArray();
    }

    private static void drain(InputStream in) throws IOException {
        byte[] buf = new byte[1 << 16];
        while (in.read(buf) > 0) { }
    }

    private static void send(HttpExchange ex, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, b.length);
        try (OutputStream os = ex.getResponseBody()) { os.write(b); }
    }

    static String json(Classifier clf, List<Classifier.Scored> top) {
        StringBuilder sb = new StringBuilder("{\"model\":").append(quote(clf.model)).append(",\"backend\":")
                .append(quote(clf.backend())).append(",\"topk\":[");
        for (int i = 0; i < top.size(); i++) {
            Classifier.Scored s = top.get(i);
            sb.append(i == 0 ? "" : ",").append("{\"index\":").append(s.index()).append(",\"label\":")
                    .append(quote(s.label())).append(",\"prob\":").append(s.prob()).append('}');
        }
        return sb.append("]}").toString();
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
