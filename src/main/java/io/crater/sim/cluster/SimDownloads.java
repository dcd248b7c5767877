package io.crater.sim.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The hub client of download pods (label {@value SimLabels#KIND} = {@value SimLabels#DOWNLOAD_KIND}), played inside
 * Crater's process on a thread of its own, never as a host process: it reads the container's command line as
 * {@code huggingface-cli download REPO --repo-type T --revision R [--include P..] [--exclude P..] --local-dir DIR} does,
 * asks the address in {@code HF_ENDPOINT} for the revision's files ({@code HF_TOKEN} as a bearer token when set), and
 * writes the chosen ones into {@code DIR} through the container's mounts as they arrive, so their sizes grow while it
 * runs. A file already complete is skipped and a partial one continued with a {@code Range} request, as the client
 * does. It ends with exit code 0, or 1 and the reason.
 */
final class SimDownloads {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** How a transfer ended. */
    record Outcome(int exitCode, String message) {}

    private final ShellPod.Host host;
    private final PodLogs logs;
    private final Clock clock;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "crater-sim-download");
        t.setDaemon(true);
        return t;
    });
    private final Map<String, Future<Outcome>> transfers = new ConcurrentHashMap<>();
    /** The body each transfer is reading now: closed when its pod goes, so a blocked read ends. */
    private final Map<String, InputStream> reading = new ConcurrentHashMap<>();

    SimDownloads(ShellPod.Host host, PodLogs logs, Clock clock) {
        this.host = host;
        this.logs = logs;
        this.clock = clock;
    }

    static boolean isDownload(Pod pod) {
        Map<String, String> labels = pod.getMetadata().getLabels();
        return labels != null && SimLabels.DOWNLOAD_KIND.equals(labels.get(SimLabels.KIND));
    }

    /** The transfer's outcome once it ended; null while it runs (started at the first call). */
    Outcome outcome(String key, Pod pod, Node node) {
        Future<Outcome> f = transfers.computeIfAbsent(key, k -> threads.submit(() -> transfer(key, pod, node)));
        if (!f.isDone()) {
            return null;
        }
        try {
            return f.get();
        } catch (Exception e) {
            return new Outcome(1, "the download stopped: " + e.getMessage());
        }
    }

    /** The pod is gone: its transfer stops where it is (what it wrote stays). */
    void forget(String key) {
        Future<Outcome> f = transfers.remove(key);
        if (f != null) {
            f.cancel(true);
        }
        InputStream in = reading.remove(key);
        if (in != null) {
            try {
                in.close();
            } catch (IOException e) {
                // closed either way
            }
        }
    }

    private Outcome transfer(String key, Pod pod, Node node) {
        Container c = pod.getSpec().getContainers().get(0);
        List<String> words = new ArrayList<>();
        words.addAll(c.getCommand() == null ? List.of() : c.getCommand());
        words.addAll(c.getArgs() == null ? List.of() : c.getArgs());
        HubCommand cmd = HubCommand.parse(words);
        if (cmd == null) {
            return log(pod, new Outcome(2, "usage: huggingface-cli download REPO [options] --local-dir DIR"));
        }
        ShellPod sp = ShellPod.of(pod, c.getName(), node, host);
        SimFiles files = new SimFiles(sp.mounts(), sp.uid() == 0, sp.home());
        String endpoint = base(sp.env().getOrDefault("HF_ENDPOINT", "https://huggingface.co"));
        String token = sp.env().get("HF_TOKEN");
        try {
            List<long[]> sizes = new ArrayList<>();
            List<String> chosen = list(endpoint, cmd, token, sizes);
            for (int i = 0; i < chosen.size(); i++) {
                fetch(key, pod, files, endpoint, cmd, token, chosen.get(i), sizes.get(i)[0]);
            }
            return log(pod, new Outcome(0, null));
        } catch (Failure e) {
            return log(pod, new Outcome(1, e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome(1, "interrupted");
        }
    }

    /** The revision's files the command takes, with their sizes (same order). */
    private List<String> list(String endpoint, HubCommand cmd, String token, List<long[]> sizes)
            throws Failure, InterruptedException {
        String url = endpoint + "/api/" + (cmd.repoType().equals("dataset") ? "datasets/" : "models/") + cmd.repo()
                + "/revision/" + URLEncoder.encode(cmd.revision(), StandardCharsets.UTF_8) + "?blobs=true";
        HttpResponse<InputStream> res = get(url, token, 0);
        List<String> out = new ArrayList<>();
        try (InputStream in = res.body()) {
            if (res.statusCode() != 200) {
                throw new Failure(
                        "the hub answered HTTP " + res.statusCode() + " for " + cmd.repo() + "@" + cmd.revision());
            }
            for (JsonNode f : JSON.readTree(in).path("siblings")) {
                String path = f.path("rfilename").asText("");
                if (!path.isEmpty() && HubCommand.selected(path, cmd.include(), cmd.exclude())) {
                    out.add(path);
                    sizes.add(new long[] {f.has("size") ? f.path("size").asLong() : -1});
                }
            }
        } catch (IOException e) {
            throw new Failure("the hub's file list could not be read: " + e.getMessage());
        }
        return out;
    }

    /** One file into the folder: skipped when complete, continued when partial. */
    private void fetch(
            String key, Pod pod, SimFiles files, String endpoint, HubCommand cmd, String token, String path, long size)
            throws Failure, InterruptedException {
        SimFiles.Located at = place(files, cmd.localDir() + "/" + path);
        long have =
                SimFiles.exists(at) && !SimFiles.isLink(at) ? at.host().toFile().length() : 0;
        if (size >= 0 && have == size) {
            return;
        }
        String url = endpoint + (cmd.repoType().equals("dataset") ? "/datasets/" : "/") + cmd.repo() + "/resolve/"
                + cmd.revision() + "/" + path;
        logs.append(
                ns(pod),
                name(pod),
                clock.instant(),
                "downloading " + path + (size >= 0 ? " (" + size + " bytes)" : ""));
        HttpResponse<InputStream> res = get(url, token, have);
        boolean append = res.statusCode() == 206;
        if (res.statusCode() != 200 && !append) {
            close(res);
            throw new Failure("the hub answered HTTP " + res.statusCode() + " for " + path);
        }
        try (InputStream in = res.body();
                OutputStream out = Files.newOutputStream(
                        at.host(),
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE,
                        append ? StandardOpenOption.APPEND : StandardOpenOption.TRUNCATE_EXISTING,
                        LinkOption.NOFOLLOW_LINKS)) {
            reading.put(key, in);
            if (!transfers.containsKey(key)) {
                throw new InterruptedException();
            }
            byte[] buf = new byte[1 << 14];
            for (int n; (n = in.read(buf)) > 0; ) {
                if (Thread.currentThread().isInterrupted()) {
                    throw new InterruptedException();
                }
                out.write(buf, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            throw new Failure("downloading " + path + " failed: " + e.getMessage());
        } finally {
            reading.remove(key);
        }
    }

    /** The file's place in the container's tree, its folders made; refused in a read-only mount or through a link. */
    private static SimFiles.Located place(SimFiles files, String path) throws Failure {
        try {
            String[] parts = path.substring(1).split("/");
            StringBuilder dir = new StringBuilder();
            for (int i = 0; i < parts.length - 1; i++) {
                dir.append('/').append(parts[i]);
                SimFiles.Located d = files.locate("/", dir.toString(), true);
                if (!SimFiles.exists(d)) {
                    files.mkdir(d);
                }
            }
            SimFiles.Located at = files.locate("/", path, false);
            if (SimFiles.isLink(at)) {
                throw new Failure(path + " is a link");
            }
            files.checkWritable(at);
            return at;
        } catch (SimFiles.FsError e) {
            throw new Failure(path + ": " + e.getMessage());
        }
    }

    private static HttpResponse<InputStream> get(String url, String token, long from)
            throws Failure, InterruptedException {
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(60))
                .GET();
        if (token != null && !token.isEmpty()) {
            req.header("Authorization", "Bearer " + token);
        }
        if (from > 0) {
            req.header("Range", "bytes=" + from + "-");
        }
        try {
            return HttpClient.newBuilder()
                    .connectTimeout(Duration.ofSeconds(10))
                    .followRedirects(HttpClient.Redirect.NORMAL)
                    .build()
                    .send(req.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException | IllegalArgumentException e) {
            throw new Failure("the hub at " + url + " cannot be reached: " + e.getMessage());
        }
    }

    private static void close(HttpResponse<InputStream> res) {
        try {
            res.body().close();
        } catch (IOException e) {
            // nothing to keep
        }
    }

    private Outcome log(Pod pod, Outcome o) {
        logs.append(ns(pod), name(pod), clock.instant(), o.exitCode() == 0 ? "download complete" : o.message());
        return o;
    }

    private static String base(String endpoint) {
        return endpoint.endsWith("/") ? endpoint.substring(0, endpoint.length() - 1) : endpoint;
    }

    private static String ns(Pod pod) {
        return pod.getMetadata().getNamespace();
    }

    private static String name(Pod pod) {
        return pod.getMetadata().getName();
    }

    /** Why a transfer failed, in the client's words. */
    private static final class Failure extends Exception {
        Failure(String message) {
            super(message, null, false, false);
        }
    }

    void close() {
        threads.shutdownNow();
    }
}
