package io.crater.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code crater job logs}: the last lines of a pod's log (from the archive once the pods are gone), or with
 * {@code -f} the log as it is written, ending when the container ends.
 */
@Command(
        mixinStandardHelpOptions = true,
        name = "logs",
        description = {
            "Print or follow a job's log.",
            "The main pod's by default (any pod with --pod TASK-INDEX, e.g. worker-1); from the archive once the pods"
                    + " are gone. -f follows it as it is written (waiting for the job to start first) and ends when"
                    + " the container ends."
        })
final class JobLogs extends Verb {

    @Parameters(paramLabel = "JOB", description = "The job's id.")
    String job;

    @Option(
            names = {"-f", "--follow"},
            description = "Follow the log from its start until the container ends.")
    boolean follow;

    @Option(
            names = "--pod",
            paramLabel = "TASK-INDEX",
            description = "The pod: its task and index (main-0, master-0, worker-1) or its full name.")
    String pod;

    @Option(
            names = "--tail",
            paramLabel = "N",
            description = "Without -f: only the last N lines (default: the server's, 1000).")
    Integer tail;

    @Override
    protected int execute() {
        if (tail != null && tail < 1) {
            throw new CliException(Exit.USAGE, msg().get("logs.badTail", tail));
        }
        String podName = podName(job, pod);
        if (follow) {
            JobWait.await(this, job, "started", null);
            return follow(this, job, podName);
        }
        out().print(text(this, job, podName, tail));
        out().flush();
        return Exit.OK;
    }

    /** A pod named by task and index ({@code worker-1}) as its full name ({@code c-<job>-worker-1}); null stays. */
    static String podName(String job, String pod) {
        if (pod == null || pod.isBlank()) {
            return null;
        }
        String p = pod.strip();
        return p.startsWith("c-" + job + "-") ? p : "c-" + job + "-" + p;
    }

    static String text(Verb v, String job, String pod, Integer tail) {
        Map<String, Object> q = new LinkedHashMap<>();
        q.put("pod", pod);
        q.put("tailLines", tail);
        Api.Raw raw = v.api()
                .send(
                        "GET",
                        JobCommands.path(job) + "/logs" + Api.query(q),
                        null,
                        null,
                        Map.of("Accept", "text/plain, application/problem+json"));
        return raw.text();
    }

    /**
     * Follows the pod's log (Server-Sent Events, one line per event) to standard output until the server ends the
     * stream; when the pod is already gone, the archived log is printed instead.
     */
    static int follow(Verb v, String job, String pod) {
        Map<String, Object> q = new LinkedHashMap<>();
        q.put("pod", pod);
        InputStream in;
        try {
            in = v.api().stream(JobCommands.path(job) + "/logs/stream", q, "text/event-stream");
        } catch (Problems.ApiError e) {
            if (e.status() != 404) {
                throw e;
            }
            v.out().print(text(v, job, pod, null));
            v.out().flush();
            return Exit.OK;
        }
        try (in) {
            events(in, (name, data) -> {
                v.out().println(data);
                v.out().flush();
            });
        } catch (IOException e) {
            throw new CliException(Exit.ERROR, v.msg().get("logs.broken", e.getMessage()));
        }
        return Exit.OK;
    }

    /** What one server-sent event carries. */
    interface EventSink {
        void event(String name, String data);
    }

    /**
     * Reads a Server-Sent Events stream to its end: each event's name ({@code message} when absent) and its data
     * lines joined by newlines; comments and ids are skipped.
     */
    static void events(InputStream in, EventSink sink) throws IOException {
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        StringBuilder data = null;
        String name = null;
        for (String line = r.readLine(); line != null; line = r.readLine()) {
            if (line.isEmpty()) {
                if (data != null) {
                    sink.event(name == null ? "message" : name, data.toString());
                }
                data = null;
                name = null;
            } else if (line.startsWith("data:")) {
                String d = line.substring(5);
                d = d.startsWith(" ") ? d.substring(1) : d;
                data = data == null ? new StringBuilder(d) : data.append('\n').append(d);
            } else if (line.startsWith("event:")) {
                name = line.substring(6).strip();
            }
        }
        if (data != null) {
            sink.event(name == null ? "message" : name, data.toString());
        }
    }
}
