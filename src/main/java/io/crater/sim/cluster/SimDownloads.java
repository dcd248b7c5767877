package io.crater.sim.cluster;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The hub client of download pods (label {@value SimLabels#KIND} = {@value SimLabels#DOWNLOAD_KIND}), played inside
 * Crater's process on a thread of its own, never as a host process: it reads the container's command line as
 * {@code huggingface-cli download} or {@code modelscope download} does ({@link HubCommand}), asks the hub for the
 * revision's files with the client's own calls and credential ({@link SimHubCalls}), and writes the chosen ones into the
 * local folder through the container's mounts as they arrive, so their sizes grow while it runs. A file already complete is skipped and a partial one continued with a {@code Range} request, as the client
 * does. It ends with exit code 0, or 1 and the reason.
 */
final class SimDownloads {

    /** Where ModelScope's client writes files (at their paths) before they are checked and moved into place. */
    static final String MODELSCOPE_STAGING = "._____temp";

    /** How often ModelScope's client fetches a file whose SHA-256 is wrong before it gives up. */
    static final int HASH_ATTEMPTS = 3;

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
            return log(
                    pod, new Outcome(2, "usage: huggingface-cli|modelscope download REPO [options] --local-dir DIR"));
        }
        ShellPod sp = ShellPod.of(pod, c.getName(), node, host);
        SimFiles files = new SimFiles(sp.mounts(), sp.uid() == 0, sp.home());
        SimHubCalls hub = new SimHubCalls(cmd, sp.env());
        try {
            for (SimHubCalls.Listed f : hub.list()) {
                fetch(key, pod, files, hub, cmd, f);
            }
            return log(pod, new Outcome(0, null));
        } catch (SimHubCalls.Failure e) {
            return log(pod, new Outcome(1, e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome(1, "interrupted");
        }
    }

    /**
     * One file into the folder: skipped when complete at its place, else continued from what is there. ModelScope's
     * client writes into {@value #MODELSCOPE_STAGING}{@code /<path>} under the folder, checks the listed SHA-256 (a
     * wrong one is deleted and fetched again, {@value #HASH_ATTEMPTS} times at most) and then moves it into place.
     */
    private void fetch(String key, Pod pod, SimFiles files, SimHubCalls hub, HubCommand cmd, SimHubCalls.Listed f)
            throws SimHubCalls.Failure, InterruptedException {
        SimFiles.Located at = place(files, cmd.localDir() + "/" + f.path());
        long done =
                SimFiles.exists(at) && !SimFiles.isLink(at) ? at.host().toFile().length() : 0;
        if (f.size() >= 0 && done == f.size()) {
            return;
        }
        logs.append(
                ns(pod),
                name(pod),
                clock.instant(),
                "downloading " + f.path() + (f.size() >= 0 ? " (" + f.size() + " bytes)" : ""));
        if (!hub.modelscope()) {
            write(key, hub, f, at, done);
            return;
        }
        SimFiles.Located staged = place(files, cmd.localDir() + "/" + MODELSCOPE_STAGING + "/" + f.path());
        for (int attempt = 1; ; attempt++) {
            long have = SimFiles.exists(staged) ? staged.host().toFile().length() : 0;
            if (f.size() < 0 || have < f.size()) {
                write(key, hub, f, staged, have);
            }
            if (f.sha256() == null || f.sha256().equalsIgnoreCase(sha256(staged))) {
                break;
            }
            try {
                Files.deleteIfExists(staged.host());
            } catch (IOException e) {
                throw new SimHubCalls.Failure(f.path() + ": " + e.getMessage());
            }
            if (attempt == HASH_ATTEMPTS) {
                throw new SimHubCalls.Failure("File " + f.path() + " hash validation failed after " + HASH_ATTEMPTS
                        + " attempts, the file may be corrupted.");
            }
        }
        try {
            Files.move(staged.host(), at.host(), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new SimHubCalls.Failure(f.path() + ": " + e.getMessage());
        }
    }

    /** The file's bytes from {@code from} on, appended on {@code 206}, written anew on {@code 200}. */
    private void write(String key, SimHubCalls hub, SimHubCalls.Listed f, SimFiles.Located at, long from)
            throws SimHubCalls.Failure, InterruptedException {
        String range =
                from <= 0 ? "" : hub.modelscope() ? "bytes=" + from + "-" + (f.size() - 1) : "bytes=" + from + "-";
        HttpResponse<InputStream> res = hub.get(hub.fileUrl(f.path()), range);
        boolean append = res.statusCode() == 206;
        if (res.statusCode() != 200 && !append) {
            close(res);
            throw new SimHubCalls.Failure("the hub answered HTTP " + res.statusCode() + " for " + f.path());
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
            throw new SimHubCalls.Failure("downloading " + f.path() + " failed: " + e.getMessage());
        } finally {
            reading.remove(key);
        }
    }

    private static String sha256(SimFiles.Located at) {
        try (InputStream in = Files.newInputStream(at.host(), LinkOption.NOFOLLOW_LINKS)) {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) {
                md.update(buf, 0, n);
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (IOException | NoSuchAlgorithmException e) {
            return "";
        }
    }

    /** The file's place in the container's tree, its folders made; refused in a read-only mount or through a link. */
    private static SimFiles.Located place(SimFiles files, String path) throws SimHubCalls.Failure {
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
                throw new SimHubCalls.Failure(path + " is a link");
            }
            files.checkWritable(at);
            return at;
        } catch (SimFiles.FsError e) {
            throw new SimHubCalls.Failure(path + ": " + e.getMessage());
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

    private static String ns(Pod pod) {
        return pod.getMetadata().getNamespace();
    }

    private static String name(Pod pod) {
        return pod.getMetadata().getName();
    }

    void close() {
        threads.shutdownNow();
    }
}
