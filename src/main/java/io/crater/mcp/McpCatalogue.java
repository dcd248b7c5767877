package io.crater.mcp;

import static io.crater.mcp.Schemas.anyObject;
import static io.crater.mcp.Schemas.arrayOf;
import static io.crater.mcp.Schemas.bool;
import static io.crater.mcp.Schemas.integer;
import static io.crater.mcp.Schemas.oneOf;
import static io.crater.mcp.Schemas.output;
import static io.crater.mcp.Schemas.string;
import static io.crater.mcp.Schemas.typed;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.crater.job.JobKind;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The tools the MCP endpoint offers: names, descriptions, input and output schemas, and what they may change. */
final class McpCatalogue {

    /** A tool as {@code tools/list} describes it; {@code adminOnly} tools are listed and run for platform admins only. */
    record Tool(
            String name,
            String title,
            String description,
            ObjectNode inputSchema,
            ObjectNode outputSchema,
            boolean readOnly,
            boolean destructive,
            boolean adminOnly) {

        /** The tool's entry in a {@code tools/list} answer. */
        ObjectNode describe() {
            ObjectNode t = JsonNodeFactory.instance.objectNode();
            t.put("name", name).put("title", title).put("description", description);
            t.set("inputSchema", inputSchema);
            t.set("outputSchema", outputSchema);
            ObjectNode a = t.putObject("annotations");
            a.put("title", title)
                    .put("readOnlyHint", readOnly)
                    .put("destructiveHint", destructive)
                    .put("idempotentHint", readOnly || destructive)
                    .put("openWorldHint", false);
            return t;
        }
    }

    private static final String STATES =
            "Queued, Admitted, Pending, Running, Stopping, Succeeded, Failed, Stopped or Rejected";

    private static final ObjectNode ACCOUNT =
            string("the account's slug; when left out, the caller's default account", 100);

    private static final ObjectNode JOB_ID = string("the job's id, e.g. j7k3f9", 64);

    private static final ObjectNode SUMMARY = summary();

    static final List<Tool> TOOLS = List.of(
            new Tool(
                    "list_jobs",
                    "List jobs",
                    "Jobs of the caller's accounts (or of one account, or only the caller's own), newest first, with"
                            + " state, requests and the reasons a waiting job gives.",
                    Schemas.input(props(
                            "account", string("only jobs of this account (slug)", 100),
                            "mine", bool("only the caller's own jobs", false),
                            "state", string("only jobs in this state: " + STATES, 20),
                            "kind", oneOf("only jobs of this kind", kinds()),
                            "limit", integer("at most this many jobs (default 50)", 1, 200),
                            "cursor", string("the nextCursor of the previous page", 40))),
                    page(),
                    true,
                    false,
                    false),
            new Tool(
                    "get_job",
                    "Get a job",
                    "A job with its spec, state history, pods and placement, Kubernetes events, how its containers"
                            + " ended and what the caller may do with it.",
                    Schemas.input(props("id", JOB_ID), "id"),
                    output(
                            props(
                                    "job", SUMMARY,
                                    "spec", typed("object", "null"),
                                    "history", arrayOf(typed("object")),
                                    "pods", arrayOf(typed("object")),
                                    "events", arrayOf(typed("object")),
                                    "exits", arrayOf(typed("object")),
                                    "permissions", typed("object", "null")),
                            "job"),
                    true,
                    false,
                    false),
            new Tool(
                    "why_is_job_waiting",
                    "Why is the job waiting",
                    "Why a job waits (reason codes with the numbers behind them, before and after admission), its"
                            + " place in its account's line and the cluster's, when it should start (or why that is"
                            + " unknown) and what change would make it start now.",
                    Schemas.input(props("id", JOB_ID), "id"),
                    output(
                            props(
                                    "state", typed("string"),
                                    "reasons", arrayOf(reason()),
                                    "position", typed("object", "null"),
                                    "estimate", typed("object", "null"),
                                    "suggestions", arrayOf(typed("object"))),
                            "state",
                            "reasons"),
                    true,
                    false,
                    false),
            new Tool(
                    "tail_job_log",
                    "Tail a job's log",
                    "The last lines of a pod's log (the job's main pod unless one is named); from the archive once"
                            + " the pods are gone.",
                    Schemas.input(
                            props(
                                    "id", JOB_ID,
                                    "pod", string("a pod of the job (see get_job)", 253),
                                    "lines", integer("how many lines from the end (default 100)", 1, 5000)),
                            "id"),
                    output(
                            props(
                                    "job", typed("string"),
                                    "pod", typed("string", "null"),
                                    "lines", arrayOf(typed("string"))),
                            "job",
                            "lines"),
                    true,
                    false,
                    false),
            new Tool(
                    "explain_job_failure",
                    "Explain a job's failure",
                    "Why a job ended as it did: its state and reason, how each container ended (exit codes, OOMKilled"
                            + " and other termination reasons), warning events, the last state changes and the last"
                            + " lines of its log.",
                    Schemas.input(
                            props(
                                    "id",
                                    JOB_ID,
                                    "lines",
                                    integer("how many log lines from the end (default 50)", 1, 1000)),
                            "id"),
                    output(
                            props(
                                    "job", typed("string"),
                                    "state", typed("string"),
                                    "stateReason", typed("string", "null"),
                                    "stateMessage", typed("string", "null"),
                                    "exits", arrayOf(typed("object")),
                                    "containers", arrayOf(typed("object")),
                                    "warnings", arrayOf(typed("object")),
                                    "history", arrayOf(typed("object")),
                                    "logTail", arrayOf(typed("string")),
                                    "logUnavailable", typed("string", "null")),
                            "job",
                            "state",
                            "exits"),
                    true,
                    false,
                    false),
            McpCatalogueMore.quota(),
            McpCatalogueMore.accelerators(),
            McpCatalogueMore.submit(),
            McpCatalogueMore.stop(),
            McpCatalogueMore.nodes(),
            McpCatalogueMore.allJobs());

    private McpCatalogue() {}

    static Optional<Tool> find(String name) {
        return TOOLS.stream().filter(t -> t.name().equals(name)).findFirst();
    }

    /** The tools this caller may see. */
    static List<Tool> visibleTo(boolean platformAdmin) {
        return TOOLS.stream().filter(t -> platformAdmin || !t.adminOnly()).toList();
    }

    static ObjectNode account() {
        return ACCOUNT.deepCopy();
    }

    static String[] kinds() {
        return Arrays.stream(JobKind.values()).map(JobKind::id).toArray(String[]::new);
    }

    /** Properties in the order given: name, schema, name, schema, ... */
    static Map<String, ObjectNode> props(Object... pairs) {
        Map<String, ObjectNode> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put((String) pairs[i], (ObjectNode) pairs[i + 1]);
        }
        return m;
    }

    /** A page of job summaries. */
    static ObjectNode page() {
        return output(props("items", arrayOf(summary()), "nextCursor", typed("string", "null")), "items");
    }

    /** A job as lists show it. */
    static ObjectNode summary() {
        ObjectNode s = typed("object");
        summaryProperties().forEach(s.putObject("properties")::set);
        s.putArray("required").add("id").add("state");
        return s;
    }

    static Map<String, ObjectNode> summaryProperties() {
        return props(
                "id", typed("string"),
                "name", typed("string", "null"),
                "kind", typed("string"),
                "state", typed("string"),
                "account", typed("string"),
                "owner", typed("string"),
                "requests", typed("object", "null"),
                "reasons", arrayOf(reason()));
    }

    /** A reason: a stable code, a sentence, the numbers behind it and the names it is about. */
    static ObjectNode reason() {
        ObjectNode s = typed("object");
        ObjectNode p = s.putObject("properties");
        p.set("code", typed("string"));
        p.set("message", typed("string"));
        p.set("numbers", typed("object"));
        p.set("args", typed("object"));
        s.putArray("required").add("code");
        return s;
    }

    static ObjectNode spec() {
        return anyObject(
                "the job spec, the body of POST /api/v1/jobs: name, kind, image, command, args, workingDir, env,"
                        + " resources {cpu, memory, accelerators, acceleratorModel}, workers, timeLimit, priority, backfill;"
                        + " or a template {id, version, parameters}");
    }
}
