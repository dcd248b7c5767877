package io.crater.bench;

import io.crater.PackagedApp;
import io.crater.TestDirs;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Memory of the packaged embedded default ({@code bin/crater server}'s JVM options and environment, bin/server-jvm.*) idle
 * and under load: the server's resident memory, its heap, the JVM's native memory by category (Native Memory
 * Tracking, on for this measurement only, its own overhead left out) and the embedded PostgreSQL's memory apart.
 * Run by {@code make bench}; {@code -Dcrater.app.jvm-options="-Xmx1g"} measures other options (the launcher's
 * before). It prints figures and asserts nothing about time or size.
 */
class FootprintBench {

    static final String PW = "Footprint-pass-2026";
    static final int CLIENTS = 8;
    static final int SUBMISSIONS = Integer.getInteger("bench.footprint.submissions", 1_000);
    static final long SETTLE_MS = Long.getLong("bench.footprint.settle-ms", 60_000);

    @Test
    void figures() throws Exception {
        Path home = TestDirs.create("crater-footprint");
        List<String> options = PackagedApp.launcherJvmOptions();
        try (PackagedApp app =
                new PackagedApp(home).jvm("-XX:NativeMemoryTracking=summary").start()) {
            System.out.printf(
                    "footprint: the packaged embedded default, JVM options %s, environment %s; anchors: the launcher's"
                            + " -Xmx1g before 508 MB idle, JupyterHub about 500 MB, the bar 300 MB idle%n",
                    String.join(" ", options), PackagedApp.launcherEnv());
            Thread.sleep(SETTLE_MS);
            Sample idle = Sample.of(app);
            print("idle " + SETTLE_MS / 1000 + " s after start", idle);
            Report.figure("footprint.idle.rss", idle.serverRssKib() / 1024.0);
            Load load = new Load(app);
            Sample during = load.run();
            print("under load, at its end", during);
            Report.figure("footprint.load.rss", during.serverRssKib() / 1024.0);
            System.out.printf(
                    "footprint load: %d submissions and %d job lists (pages of 50) from %d clients in %.1f s:"
                            + " %.0f submissions/s, list p50 %.0f ms; peak RSS %d MiB during it%n",
                    SUBMISSIONS,
                    load.lists.get(),
                    CLIENTS,
                    load.wallSeconds,
                    SUBMISSIONS / load.wallSeconds,
                    ApiBench.pct(load.listMillis, 50),
                    load.peakRssKib.get() >> 10);
            Thread.sleep(SETTLE_MS);
            print("idle again " + SETTLE_MS / 1000 + " s after the load", Sample.of(app));
            if (Boolean.getBoolean("bench.footprint.histogram")) {
                // What the heap holds after the load: the live objects (the histogram runs a full GC first).
                jcmd(app.pid(), "GC.class_histogram")
                        .lines()
                        .limit(30)
                        .forEach(l -> System.out.println("footprint histogram " + l));
            }
        }
    }

    static void print(String when, Sample s) {
        long nmtSelf = s.nmt.getOrDefault("Native Memory Tracking", 0L);
        System.out.printf(
                "footprint %s: server RSS %d MiB (without the tracking's own %d MiB; anonymous %d MiB, files %d MiB),"
                        + " %d threads; heap used %d of %d MiB committed; PostgreSQL %d processes, RSS %d MiB, PSS"
                        + " %d MiB%n",
                when,
                (s.rssKib - nmtSelf) >> 10,
                nmtSelf >> 10,
                s.anonKib >> 10,
                s.fileKib >> 10,
                s.threads,
                s.heapUsedKib >> 10,
                s.heapCommittedKib >> 10,
                s.pgProcesses,
                s.pgRssKib >> 10,
                s.pgPssKib >> 10);
        StringBuilder line = new StringBuilder("footprint " + when + ", native memory committed (MiB):");
        s.nmt.forEach((category, kib) -> {
            if (kib >= 1024) {
                line.append(' ').append(category).append(' ').append(kib >> 10).append(',');
            }
        });
        line.setLength(line.length() - 1);
        System.out.println(line);
    }

    /** A burst of submissions from {@link #CLIENTS} clients, each followed by a read of the job list. */
    static final class Load {
        final PackagedApp app;
        final AtomicInteger next = new AtomicInteger();
        final AtomicInteger lists = new AtomicInteger();
        final AtomicLong peakRssKib = new AtomicLong();
        final List<Double> listMillis = Collections.synchronizedList(new ArrayList<>());
        double wallSeconds;

        Load(PackagedApp app) {
            this.app = app;
        }

        Sample run() throws Exception {
            String[] admin = app.initialAdmin();
            String adminToken = app.login(admin[0], admin[1]);
            String body = "{\"username\":\"fp.user\",\"displayName\":\"F\",\"password\":\"" + PW + "\"}";
            expect(app.call("POST", "/api/v1/users", adminToken, null, body), 201);
            String token = app.login("fp.user", PW);
            ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
            long t0 = System.nanoTime();
            List<Future<?>> clients = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                clients.add(pool.submit(() -> client(token)));
            }
            while (clients.stream().anyMatch(f -> !f.isDone())) {
                peakRssKib.accumulateAndGet(status(app.pid()).get("VmRSS"), Math::max);
                Thread.sleep(250);
            }
            for (Future<?> f : clients) {
                f.get();
            }
            wallSeconds = (System.nanoTime() - t0) / 1e9;
            pool.shutdown();
            return Sample.of(app);
        }

        private Void client(String token) throws Exception {
            int i;
            while ((i = next.getAndIncrement()) < SUBMISSIONS) {
                String job =
                        "{\"name\":\"fp-" + i + "\",\"kind\":\"custom\",\"image\":\"busybox\",\"command\":[\"true\"],"
                                + "\"env\":{\"SIM_DURATION\":\"2s\"},\"resources\":{\"cpu\":\"100m\",\"memory\":\"64Mi\"}}";
                expect(app.call("POST", "/api/v1/jobs", token, null, job), 201);
                long s = System.nanoTime();
                expect(app.call("GET", "/api/v1/jobs?limit=50", token, null, null), 200);
                listMillis.add((System.nanoTime() - s) / 1e6);
                lists.incrementAndGet();
            }
            return null;
        }
    }

    static void expect(HttpResponse<String> r, int status) {
        if (r.statusCode() != status) {
            throw new IllegalStateException("expected " + status + ", got " + r.statusCode() + ": " + r.body());
        }
    }

    /** What one look at the server process and its PostgreSQL gives. */
    record Sample(
            long rssKib,
            long anonKib,
            long fileKib,
            long threads,
            long heapUsedKib,
            long heapCommittedKib,
            Map<String, Long> nmt,
            int pgProcesses,
            long pgRssKib,
            long pgPssKib) {

        /** The server's RSS without Native Memory Tracking's own memory (on only for this measurement). */
        long serverRssKib() {
            return rssKib - nmt.getOrDefault("Native Memory Tracking", 0L);
        }

        static Sample of(PackagedApp app) throws Exception {
            Map<String, Long> status = status(app.pid());
            long[] heap = parseHeap(jcmd(app.pid(), "GC.heap_info"));
            Map<String, Long> nmt = parseNmt(jcmd(app.pid(), "VM.native_memory", "summary"));
            long postmaster = Long.parseLong(Files.readAllLines(app.home().resolve("postgres/postmaster.pid"))
                    .get(0)
                    .trim());
            List<Long> pg = new ArrayList<>(List.of(postmaster));
            ProcessHandle.of(postmaster).ifPresent(p -> p.descendants().forEach(d -> pg.add(d.pid())));
            long pgRss = 0;
            long pgPss = 0;
            for (long p : pg) {
                pgRss += status(p).getOrDefault("VmRSS", 0L);
                pgPss += pss(p);
            }
            return new Sample(
                    status.get("VmRSS"),
                    status.getOrDefault("RssAnon", 0L),
                    status.getOrDefault("RssFile", 0L) + status.getOrDefault("RssShmem", 0L),
                    status.getOrDefault("Threads", 0L),
                    heap[0],
                    heap[1],
                    nmt,
                    pg.size(),
                    pgRss,
                    pgPss);
        }
    }

    /** The numeric fields of /proc/PID/status (kB for sizes). */
    static Map<String, Long> status(long pid) throws IOException {
        Map<String, Long> out = new LinkedHashMap<>();
        Path file = Path.of("/proc/" + pid + "/status");
        if (!Files.exists(file)) {
            return out;
        }
        for (String line : Files.readAllLines(file)) {
            Matcher m = Pattern.compile("^(\\w+):\\s+(\\d+)").matcher(line);
            if (m.find()) {
                out.put(m.group(1), Long.parseLong(m.group(2)));
            }
        }
        return out;
    }

    /** Proportional set size in kB: a PostgreSQL backend's share of the shared buffers it touched, not all of it. */
    static long pss(long pid) throws IOException {
        Path file = Path.of("/proc/" + pid + "/smaps_rollup");
        if (!Files.exists(file)) {
            return 0;
        }
        for (String line : Files.readAllLines(file)) {
            if (line.startsWith("Pss:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return 0;
    }

    /** Used and committed KiB from {@code GC.heap_info} (the serial collector's generations, or G1's total). */
    static long[] parseHeap(String info) {
        long used = 0;
        long committed = 0;
        Matcher m = Pattern.compile(
                        "^ (?:def new generation|tenured generation|garbage-first heap)\\s+total (\\d+)K,"
                                + " used (\\d+)K",
                        Pattern.MULTILINE)
                .matcher(info);
        while (m.find()) {
            committed += Long.parseLong(m.group(1));
            used += Long.parseLong(m.group(2));
        }
        return new long[] {used, committed};
    }

    /** Committed KiB per category of {@code VM.native_memory summary}, "Total" first. */
    static Map<String, Long> parseNmt(String summary) {
        Map<String, Long> out = new LinkedHashMap<>();
        Matcher total =
                Pattern.compile("Total: reserved=\\d+KB, committed=(\\d+)KB").matcher(summary);
        if (total.find()) {
            out.put("Total", Long.parseLong(total.group(1)));
        }
        Matcher m = Pattern.compile("^-\\s+(.+?) \\(reserved=\\d+KB, committed=(\\d+)KB", Pattern.MULTILINE)
                .matcher(summary);
        while (m.find()) {
            out.put(m.group(1).trim(), Long.parseLong(m.group(2)));
        }
        return out;
    }

    /** Runs the JDK's jcmd (beside this JVM's java) against {@code pid}. */
    static String jcmd(long pid, String... command) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Path jcmd = Path.of(java).resolveSibling("jcmd");
        List<String> argv = new ArrayList<>(List.of(Files.exists(jcmd) ? jcmd.toString() : "jcmd", Long.toString(pid)));
        argv.addAll(List.of(command));
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return out;
    }
}
