package io.crater.downloads;

import io.crater.files.FileTargets;
import io.crater.identity.Caller;
import io.crater.job.EnvValue;
import io.crater.job.JobService;
import io.crater.job.JobViews;
import io.crater.platform.ApiException;
import io.crater.policy.HubDownloads;
import io.crater.policy.Reason;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Starting a download's job: the per-user limits, then a job of kind {@code download} submitted like any other (it
 * goes through admission, shows in the job list with its logs) that runs the hub's client into the target folder.
 */
@ApplicationScoped
class DownloadStarts {

    /** Where the job's pod sees the caller's own space and the job's account's space (as every job's pods do). */
    static final String USER_MOUNT = "/crater/user";

    static final String ACCOUNT_MOUNT = "/crater/account";

    /** Where the default setup installs the client inside the pod. */
    static final String CLIENT_DIR = "/tmp/hub-client";

    @Inject
    DownloadQueries queries;

    @Inject
    DownloadsConfig config;

    @Inject
    JobService jobs;

    @Inject
    Clock clock;

    /** 429 {@code DownloadLimitReached} with the numbers when the owner may not start another now. In a session. */
    Uni<Void> requireRoom(long ownerId) {
        HubDownloads.Limits limits =
                new HubDownloads.Limits(config.maxConcurrent(), config.maxPerWindow(), config.window());
        return queries.load(ownerId, clock.instant().minus(config.window())).map(n -> {
            HubDownloads.limit(limits, (int) n[0], (int) n[1]).ifPresent(r -> {
                throw refused(r);
            });
            return null;
        });
    }

    private static ApiException refused(Reason r) {
        return new ApiException(429, "DownloadLimitReached", "Too many requests", r.message(), List.of(r), null, null);
    }

    /** What a run is: the download's place and source ({@code revision}: the branch or tag, ModelScope's client's). */
    record Run(
            String hub,
            String kind,
            String repository,
            String sha,
            String revision,
            List<String> include,
            List<String> exclude,
            String endpoint,
            String credential,
            String name,
            FileTargets.Target target) {}

    /** The configured address of {@code hub}. */
    static String endpoint(DownloadsConfig config, String hub) {
        return "modelscope".equals(hub)
                ? config.modelscope().endpoint()
                : config.huggingface().endpoint();
    }

    /** The addresses of {@code hub} a retry may name: its address and its mirrors. */
    static List<String> addresses(DownloadsConfig config, String hub) {
        List<String> out = new ArrayList<>(List.of(endpoint(config, hub)));
        out.addAll(("modelscope".equals(hub)
                        ? config.modelscope().mirrors()
                        : config.huggingface().mirrors())
                .orElse(List.of()));
        return out;
    }

    /** Submits the run's job into {@code account} (null: the caller's default); its public id. */
    Uni<String> start(Run run, String account, Caller caller) {
        return jobs.submitOwn(spec(run), account, caller).map(JobViews.JobSummary::id);
    }

    /**
     * The job: {@code sh -c '<setup> && exec "$@"'} running the hub's client into the folder as the pod sees it:
     * {@code huggingface-cli download ...} at the commit, the endpoint in {@code HF_ENDPOINT}, the token in {@code
     * HF_TOKEN}; or {@code modelscope download ... --endpoint URL} at the branch or tag, the token in {@code
     * MODELSCOPE_API_TOKEN}. A token comes only from the job's Secret.
     */
    JobViews.SubmitJob spec(Run run) {
        boolean modelscope = "modelscope".equals(run.hub());
        String setup = (modelscope ? config.modelscope().setup() : config.setup()).trim();
        String script = setup.isEmpty() ? "exec \"$@\"" : setup + " && exec \"$@\"";
        Map<String, EnvValue> env = new LinkedHashMap<>();
        String endpoint = HubClient.base(run.endpoint());
        if (modelscope) {
            // The client's own variable takes a host (it adds https://); --endpoint on the command line takes any URL.
            if (endpoint.startsWith("https://")) {
                env.put("MODELSCOPE_DOMAIN", EnvValue.plain(endpoint.substring("https://".length())));
            }
        } else {
            env.put("HF_ENDPOINT", EnvValue.plain(endpoint));
            env.put("HF_HUB_DISABLE_TELEMETRY", EnvValue.plain("1"));
        }
        if (!setup.isEmpty()) {
            // The default setup installs the client with pip --target into the pod's own /tmp, never into a space.
            env.put("PYTHONPATH", EnvValue.plain(CLIENT_DIR));
            env.put("PATH", EnvValue.plain(CLIENT_DIR + "/bin:/usr/local/bin:/usr/bin:/bin"));
        }
        if (run.credential() != null) {
            env.put(modelscope ? "MODELSCOPE_API_TOKEN" : "HF_TOKEN", EnvValue.reference(run.credential()));
        }
        List<String> args = HubDownloads.command(
                run.hub(),
                run.kind(),
                run.repository(),
                modelscope ? run.revision() : run.sha(),
                run.include(),
                run.exclude(),
                mountPath(run.target()),
                endpoint);
        return new JobViews.SubmitJob(
                "download " + run.name(),
                "download",
                config.image(),
                List.of("sh", "-c", script, "download"),
                args,
                null,
                env,
                new JobViews.PodResources(config.cpu(), config.memory(), null, null, null),
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    /** The target folder as the job's pod sees it. */
    static String mountPath(FileTargets.Target t) {
        return (t.space().startsWith("user:") ? USER_MOUNT : ACCOUNT_MOUNT) + t.path();
    }

    /** The account a download's job runs in: the space's account for an account space, else the caller's choice. */
    static String jobAccount(String space, String header) {
        return space.startsWith("account:") ? space.substring("account:".length()) : blankToNull(header);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
