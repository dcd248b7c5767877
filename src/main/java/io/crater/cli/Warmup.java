package io.crater.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;

/**
 * Loads the classes a typical command loads, without a server, so that the AppCDS archive made from this run
 * ({@code bin/crater-cli}, the install script) holds them: configuration, JSON, YAML, tables, JSONPath, the
 * HTTP client and the problem text.
 */
@Command(name = "__warmup", hidden = true)
final class Warmup extends Verb {

    @Override
    protected int execute() {
        PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        // Every command class and its picocli model, so a run of any verb finds them in the archive.
        CraterCli.full(new Terminal(sink, sink, term().in(), java.util.Map.of(), false, 0));
        try {
            Path dir = Files.createTempDirectory("crater-warmup");
            Config c = Config.load(dir.resolve("config.yaml"));
            c.put(new Config.Context("warmup", "http://127.0.0.1:9", "u", "t", 1L, "a"));
            c.save();
            Config.load(dir.resolve("config.yaml"));
            Files.walk(dir)
                    .sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        } catch (java.io.IOException e) {
            // Only the archive is poorer for it.
        }
        Object page = Api.json(new Api.Raw(
                200,
                "application/json",
                "{\"items\":[{\"id\":\"j1\",\"name\":\"run\",\"state\":\"Running\",\"createdAt\":\"2026-01-01T00:00:00Z\"}],\"nextCursor\":null}"
                        .getBytes(StandardCharsets.UTF_8),
                Map.of()));
        for (String format : List.of("table", "wide", "json", "yaml", "name", "jsonpath={.items[*].id}")) {
            Output.parse(format, false, true, sink)
                    .list(
                            List.of(Values.items(page)).iterator(),
                            List.of(
                                    Output.Column.path("NAME", "id"),
                                    Output.Column.state("STATE", o -> Values.text(o, "state")),
                                    Output.Column.of("AGE", o -> Values.age(Values.at(o, "createdAt"), now()))),
                            o -> Values.text(o, "id"));
        }
        new Problems(msg()).describe(Map.of("detail", "d", "code", "C", "reasons", List.of(Map.of("message", "m"))));
        talkToALocalServer(sink);
        new Messages(java.util.Locale.SIMPLIFIED_CHINESE).get("error.signIn");
        return Exit.OK;
    }

    /** One answer and one problem from a loopback JDK server, so the client's HTTP path is loaded too. */
    private void talkToALocalServer(PrintStream sink) {
        com.sun.net.httpserver.HttpServer server;
        try {
            server = com.sun.net.httpserver.HttpServer.create(
                    new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        } catch (java.io.IOException e) {
            return;
        }
        server.createContext("/", exchange -> {
            boolean missing = exchange.getRequestURI().getPath().endsWith("/missing");
            byte[] body = (missing
                            ? "{\"status\":404,\"detail\":\"no job\",\"code\":\"NotFound\"}"
                            : "{\"items\":[],\"nextCursor\":null}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders()
                    .add("Content-Type", missing ? "application/problem+json" : "application/json");
            exchange.sendResponseHeaders(missing ? 404 : 200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort();
            Api api = new Api(url, "t", "a", new Problems(msg()));
            Values.items(api.get("/api/v1/jobs", Map.of("limit", 1)));
            api.post("/api/v1/jobs", Map.of("name", "x"));
            try {
                api.get("/api/v1/jobs/missing");
            } catch (CliException e) {
                sink.println(e.getMessage());
            }
        } finally {
            server.stop(0);
        }
    }
}
