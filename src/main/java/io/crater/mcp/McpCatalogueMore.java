package io.crater.mcp;

import static io.crater.mcp.McpCatalogue.account;
import static io.crater.mcp.McpCatalogue.props;
import static io.crater.mcp.Schemas.arrayOf;
import static io.crater.mcp.Schemas.bool;
import static io.crater.mcp.Schemas.integer;
import static io.crater.mcp.Schemas.oneOf;
import static io.crater.mcp.Schemas.output;
import static io.crater.mcp.Schemas.string;
import static io.crater.mcp.Schemas.typed;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.crater.mcp.McpCatalogue.Tool;

/** The tools about accounts, the cluster and changes, and the platform admins' tools. */
final class McpCatalogueMore {

    private McpCatalogueMore() {}

    static Tool quota() {
        return new Tool(
                "my_quota_and_usage",
                "My quota and usage",
                "An account's quota per resource with what is used, granted and borrowed, the account's default"
                        + " member limits and the caller's own, and its budget, balance, spending and burn rate"
                        + " when it has a budget.",
                Schemas.input(props("account", account())),
                output(
                        props(
                                "account", typed("string"),
                                "role", typed("string", "null"),
                                "quota", arrayOf(typed("object")),
                                "defaultLimits", typed("object"),
                                "myLimits", typed("object"),
                                "budget", typed("object", "null")),
                        "account",
                        "quota"),
                true,
                false,
                false);
    }

    static Tool accelerators() {
        ObjectNode item = typed("object");
        ObjectNode p = item.putObject("properties");
        p.set("model", typed("string"));
        p.set("displayName", typed("string", "null"));
        p.set("nodes", typed("integer"));
        p.set("total", typed("integer"));
        p.set("allocated", typed("integer"));
        p.set("free", typed("integer"));
        item.putArray("required").add("model").add("total").add("free");
        return new Tool(
                "free_accelerators",
                "Free accelerators",
                "Per accelerator model: nodes, total devices, allocated and free (free counts only nodes that can"
                        + " take pods now).",
                Schemas.input(props("model", string("only this accelerator model, e.g. nvidia-a100-80gb", 100))),
                output(props("items", arrayOf(item)), "items"),
                true,
                false,
                false);
    }

    static Tool submit() {
        return new Tool(
                "submit_job",
                "Submit a job",
                "Checks a job against quota, limits and the cluster and shows the decision with its reasons and the"
                        + " manifests (dryRun, the default). Only with dryRun=false is the job really submitted, to"
                        + " the account given or the caller's default account.",
                Schemas.input(
                        props(
                                "job", McpCatalogue.spec(),
                                "account", account(),
                                "dryRun", bool("only check and show; false submits the job for real", true),
                                "idempotencyKey", string("makes a retried submission create one job", 255)),
                        "job"),
                output(
                        props(
                                "dryRun", typed("boolean"),
                                "decision", typed("string"),
                                "reasons", arrayOf(McpCatalogue.reason()),
                                "borrowing", arrayOf(typed("string")),
                                "manifests", typed("string"),
                                "job", McpCatalogue.summary(),
                                "replayed", typed("boolean")),
                        "dryRun"),
                false,
                false,
                false);
    }

    static Tool stop() {
        return new Tool(
                "stop_job",
                "Stop a job",
                "Stops a job (its owner, an admin of its account or a platform admin): a waiting job leaves the"
                        + " line, a running one is ended and its pods are deleted.",
                Schemas.input(props("id", string("the job's id", 64)), "id"),
                output(McpCatalogue.summaryProperties(), "id", "state"),
                false,
                true,
                false);
    }

    static Tool nodes() {
        ObjectNode node = typed("object");
        ObjectNode p = node.putObject("properties");
        p.set("name", typed("string"));
        p.set("ready", typed("boolean"));
        p.set("schedulable", typed("boolean"));
        p.set("accelerator", typed("object", "null"));
        p.set("cpu", typed("object"));
        p.set("memory", typed("object"));
        p.set("pods", typed("integer"));
        node.putArray("required").add("name").add("ready");
        return new Tool(
                "cluster_nodes",
                "Cluster nodes",
                "Every node with readiness, whether it takes pods, its accelerators, CPU and memory allocatable and"
                        + " allocated, and its pod count (platform admins).",
                Schemas.input(props()),
                output(props("items", arrayOf(node)), "items"),
                true,
                false,
                true);
    }

    static Tool allJobs() {
        return new Tool(
                "list_all_jobs",
                "List all jobs",
                "Jobs of every account, newest first, by account, owner, state, kind and accelerator model (platform"
                        + " admins).",
                Schemas.input(props(
                        "account", string("only jobs of this account (slug)", 100),
                        "owner", string("only jobs of this user (username)", 100),
                        "state", string("only jobs in this state", 20),
                        "kind", oneOf("only jobs of this kind", McpCatalogue.kinds()),
                        "model", string("only jobs asking for this accelerator model", 100),
                        "limit", integer("at most this many jobs (default 50)", 1, 200),
                        "cursor", string("the nextCursor of the previous page", 40))),
                McpCatalogue.page(),
                true,
                false,
                true);
    }
}
