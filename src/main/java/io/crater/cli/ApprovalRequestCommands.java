package io.crater.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Asking for something that needs someone's yes: one subcommand per kind of request the API takes. */
@Command(
        name = "request",
        description = "Ask for a quota grant, a job lock or access to a restricted accelerator model.",
        subcommands = {
            ApprovalRequestCommands.QuotaGrant.class,
            ApprovalRequestCommands.JobLock.class,
            ApprovalRequestCommands.ModelAccess.class
        })
final class ApprovalRequestCommands {

    /** The fields every request has, and sending it. */
    abstract static class Ask extends Verb {
        @Option(
                names = "--reason",
                required = true,
                paramLabel = "TEXT",
                description = "Why you need it; the reviewer reads it.")
        String reason;

        Map<String, Object> body(String kind) {
            Map<String, Object> b = new LinkedHashMap<>();
            b.put("kind", kind);
            b.put("reason", reason);
            return b;
        }

        int send(Map<String, Object> body) {
            Object a = api().post("/api/v1/approvals", body);
            if (output().human()) {
                err().println(msg().get("approval.requested", Values.text(a, "id"), Values.text(a, "state")));
            }
            ApprovalCommands.print(this, a);
            return Exit.OK;
        }

        String until(String text) {
            return VerbInputs.time(text, now(), "--until", msg()).toString();
        }
    }

    @Command(
            name = "quota-grant",
            description = "More of a resource for the account (-a SLUG, else the current one) until a time; platform"
                    + " admins decide.")
    static final class QuotaGrant extends Ask {
        @Parameters(index = "0", paramLabel = "RESOURCE", description = "cpu, memory or an accelerator model key.")
        String resource;

        @Parameters(index = "1", paramLabel = "AMOUNT", description = "How much more, as a quantity (4, 500m, 64Gi).")
        String amount;

        @Option(
                names = "--until",
                required = true,
                paramLabel = "TIME",
                description = "When the grant ends: 2026-12-06T00:00:00Z, 2026-12-06, or a span from now (72h, 3d).")
        String until;

        @Override
        protected int execute() {
            Map<String, Object> b = body("quota-grant");
            b.put("account", VerbInputs.account(this));
            b.put("resource", resource);
            b.put("amount", amount);
            b.put("until", until(until));
            return send(b);
        }
    }

    @Command(
            name = "job-lock",
            description = "Keep one of your jobs from idle reclamation and its time limit until a time; the account's"
                    + " admins decide (short locks are approved at once).")
    static final class JobLock extends Ask {
        @Parameters(paramLabel = "JOB", description = "The job's id.")
        String job;

        @Option(
                names = "--until",
                required = true,
                paramLabel = "TIME",
                description = "When the lock ends: an ISO time, a date, or a span from now (8h, 2d).")
        String until;

        @Override
        protected int execute() {
            Map<String, Object> b = body("job-lock");
            b.put("jobId", job);
            b.put("until", until(until));
            return send(b);
        }
    }

    @Command(
            name = "model-access",
            description = "Use a restricted accelerator model in the account (-a SLUG, else the current one); the"
                    + " account's admins decide.")
    static final class ModelAccess extends Ask {
        @Parameters(paramLabel = "MODEL", description = "The model's key (see 'crater cluster accelerators').")
        String model;

        @Override
        protected int execute() {
            Map<String, Object> b = body("model-access");
            b.put("account", VerbInputs.account(this));
            b.put("model", model);
            return send(b);
        }
    }
}
