package io.crater.downloads;

import io.crater.assets.DownloadedEntries;
import io.crater.files.FileTargets;
import io.crater.job.JobEndings;
import io.crater.platform.Leadership;
import io.crater.platform.Threads;
import io.crater.platform.Unis;
import io.crater.policy.HubDownloads;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * The leader's loop over running downloads: once a download's job has ended, a successful one is verified (every file
 * there with its size, each file's SHA-256 the hub listed) and catalogued ({@link DownloadedEntries}); a failed or
 * stopped one fails with the job's reason. A branch whose head moved while downloading is a warning.
 */
@ApplicationScoped
public class DownloadWatch {

    private static final Logger LOG = Logger.getLogger(DownloadWatch.class);

    @Inject
    DownloadQueries queries;

    @Inject
    DownloadedEntries entries;

    @Inject
    DownloadTokens tokens;

    @Inject
    JobEndings endings;

    @Inject
    FileTargets targets;

    @Inject
    HubClient hub;

    @Inject
    DownloadsConfig config;

    @Inject
    Leadership leadership;

    private final ScheduledExecutorService worker = Threads.scheduler("crater-downloads");

    /** A running download whose job has ended. */
    record Ended(DownloadQueries.DownloadRow row, JobEndings.Ending job) {}

    void onStart(@Observes StartupEvent event) {
        long every = config.checkInterval().toMillis();
        worker.scheduleWithFixedDelay(this::check, every, every, TimeUnit.MILLISECONDS);
    }

    void onStop(@Observes ShutdownEvent event) {
        worker.shutdownNow();
    }

    private void check() {
        if (!leadership.leading()) {
            return;
        }
        try {
            List<Ended> ended = VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(this::ended));
            for (Ended e : ended) {
                settle(e);
            }
        } catch (Throwable e) {
            if (io.crater.platform.Leadership.Fenced.in(e)) {
                LOG.info("downloads: no longer the leader; nothing settled");
            } else if (!worker.isShutdown()) {
                LOG.warn("looking at running downloads failed; the next round retries", e);
            }
        }
    }

    private Uni<List<Ended>> ended() {
        return queries.running().flatMap(rows -> {
            List<Ended> out = new ArrayList<>();
            return Unis.sequentially(
                            rows,
                            row -> endings.of(row.jobPublicId()).invoke(job -> {
                                if (job == null || job.ended()) {
                                    out.add(new Ended(row, job));
                                }
                            }))
                    .replaceWith(out);
        });
    }

    /** One ended download: verified and catalogued, or failed with the job's reason. On the worker thread. */
    private void settle(Ended e) throws Throwable {
        DownloadQueries.DownloadRow row = e.row();
        if (e.job() == null || !"Succeeded".equals(e.job().state())) {
            String state = e.job() == null ? "Deleted" : e.job().state();
            String why = e.job() == null
                            || e.job().message() == null
                            || e.job().message().isBlank()
                    ? "its job " + row.jobPublicId() + " ended " + state
                    : "its job " + row.jobPublicId() + " ended " + state + ": "
                            + e.job().message();
            write(row, "failed", "Job" + state, why, row.warnings(), null);
            return;
        }
        Path dir = targets.hostPath(row.space(), row.path());
        Map<String, Long> sizes = DownloadFiles.sizes(dir, row.files());
        List<HubDownloads.Fault> faults =
                HubDownloads.verify(row.files(), sizes, DownloadFiles.sha256(dir, row.files(), sizes));
        if (!faults.isEmpty()) {
            // Wrong bytes are removed, so that a retry fetches those files again rather than keeping them.
            List<String> wrong = faults.stream()
                    .filter(HubDownloads.Fault::wrongBytes)
                    .map(HubDownloads.Fault::path)
                    .toList();
            DownloadFiles.remove(dir, wrong);
            String message = String.join(
                            "; ",
                            faults.stream().map(HubDownloads.Fault::message).toList())
                    + (wrong.isEmpty() ? "" : " (removed: " + String.join(", ", wrong) + ")");
            write(row, "failed", "ChecksumMismatch", message, row.warnings(), null);
            return;
        }
        List<String> warnings = new ArrayList<>(row.warnings());
        String moved = moved(row);
        if (moved != null) {
            warnings.add(moved);
        }
        FileTargets.Inspected measured = targets.measure(row.space(), row.path());
        VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> leadership
                .fenced()
                .flatMap(x -> entries.enter(downloaded(row), measured))
                .flatMap(result -> result.asset() == null
                        ? queries.settle(
                                row.id(), "running", "failed", result.reason(), result.message(), warnings, null)
                        : queries.settle(row.id(), "running", "succeeded", "", "", warnings, result.asset()))));
    }

    /** The entry a download makes: {@code source} the repository's page on the hub, {@code revision} the commit. */
    static DownloadedEntries.Downloaded downloaded(DownloadQueries.DownloadRow d) {
        String page = d.kind().equals("dataset") ? "/datasets/" : "modelscope".equals(d.hub()) ? "/models/" : "/";
        String source = HubClient.base(d.endpoint()) + page + d.repository();
        return new DownloadedEntries.Downloaded(
                d.publicId(), d.ownerId(), d.kind(), d.name(), source, d.sha(), d.visibility(), d.accountId());
    }

    /** The warning when the revision asked for (a branch or tag) names another commit now; null otherwise. */
    private String moved(DownloadQueries.DownloadRow row) {
        if (HubDownloads.isSha(row.revision())) {
            return null;
        }
        try {
            String token = VertxContextSupport.subscribeAndAwait(
                            () -> Panache.withTransaction(() -> tokens.token(row.ownerId(), row.credential())))
                    .orElse(null);
            String now = hub.resolve(row.hub(), row.endpoint(), row.kind(), row.repository(), row.revision(), token)
                    .sha();
            return now.equals(row.sha())
                    ? null
                    : "'" + row.revision() + "' moved to " + now + " while downloading; the files are of " + row.sha();
        } catch (Throwable t) {
            return "whether '" + row.revision() + "' moved while downloading could not be asked: " + t.getMessage();
        }
    }

    private void write(
            DownloadQueries.DownloadRow row,
            String state,
            String reason,
            String message,
            List<String> warnings,
            String asset)
            throws Throwable {
        VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> leadership
                .fenced()
                .flatMap(x -> queries.settle(row.id(), "running", state, reason, message, warnings, asset))));
    }
}
