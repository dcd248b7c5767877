package io.crater.images;

import io.crater.credential.CredentialService;
import io.crater.job.JobEnds;
import io.crater.platform.Threads;
import io.crater.policy.ImageBuilds;
import io.crater.policy.ImageReferences;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Ends image builds when their jobs end, on every replica (a build is claimed with {@code FOR UPDATE SKIP LOCKED}, so
 * two never end the same one): a failed or stopped job ends its build with the reason and the builder's last log
 * lines; a job that succeeded has its image asked for at the registry (a manifest HEAD, as validation asks) and, when
 * it is there, put in the owner's catalogue (a new entry, or the tag added to the owner's entry of that reference)
 * with the check recorded. The registry is asked after the claim committed, so no row stays locked for a network
 * call; the answer is written only if the build is still {@code pushed} then.
 */
@ApplicationScoped
class ImageBuildWatch {

    private static final Logger LOG = Logger.getLogger(ImageBuildWatch.class);
    private static final int BATCH = 20;
    /** How long an ended job's archive (its log tail) is waited for before the build ends without it. */
    private static final Duration ARCHIVE_WAIT = Duration.ofSeconds(20);

    @Inject
    ImageBuildQueries queries;

    @Inject
    ImageQueries images;

    @Inject
    JobEnds ends;

    @Inject
    RegistryClient registry;

    @Inject
    CredentialService credentials;

    @Inject
    ImagesConfig config;

    @Inject
    Clock clock;

    private final ScheduledExecutorService worker = Threads.scheduler("crater-image-builds");

    void onStart(@Observes StartupEvent event) {
        long ms = config.buildWatchInterval().toMillis();
        worker.scheduleWithFixedDelay(this::round, ms, ms, TimeUnit.MILLISECONDS);
    }

    void onStop(@Observes ShutdownEvent event) {
        worker.shutdownNow();
    }

    private void round() {
        try {
            List<ImageBuildQueries.BuildRow> pushed =
                    VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(this::endJobs));
            for (ImageBuildQueries.BuildRow b : pushed) {
                catalogue(b);
            }
        } catch (Throwable e) {
            if (!worker.isShutdown()) {
                LOG.warn("ending image builds failed; the next round retries", e);
            }
        }
    }

    /** Ends the builds whose jobs failed or stopped; the ones whose jobs succeeded (now or before) are returned. */
    private Uni<List<ImageBuildQueries.BuildRow>> endJobs() {
        return queries.claimOpen(BATCH)
                .flatMap(rows -> ends.of(rows.stream()
                                .map(ImageBuildQueries.BuildRow::jobPublicId)
                                .toList())
                        .flatMap(jobs -> {
                            List<ImageBuildQueries.BuildRow> pushed = new ArrayList<>();
                            Uni<Integer> chain = Uni.createFrom().item(0);
                            for (ImageBuildQueries.BuildRow b : rows) {
                                JobEnds.End e = jobs.get(b.jobPublicId());
                                if ("pushed".equals(b.state())) {
                                    pushed.add(b);
                                } else if (e == null) {
                                    chain = chain.flatMap(x -> queries.end(
                                            b.id(), "failed", "BuildJobGone", "the build's job was deleted", null));
                                } else if ("Succeeded".equals(e.state())) {
                                    pushed.add(b);
                                    chain = chain.flatMap(x -> queries.pushed(b.id()));
                                } else if (e.ended() && (e.logTail() != null || archiveLate(e))) {
                                    chain = chain.flatMap(x -> ended(b, e));
                                }
                            }
                            return chain.replaceWith(pushed);
                        }));
    }

    private boolean archiveLate(JobEnds.End e) {
        return e.finishedAt() == null || e.finishedAt().plus(ARCHIVE_WAIT).isBefore(clock.instant());
    }

    private Uni<Integer> ended(ImageBuildQueries.BuildRow b, JobEnds.End e) {
        if ("Stopped".equals(e.state())) {
            return queries.end(b.id(), "stopped", "BuildStopped", "the build was stopped", e.logTail());
        }
        String detail = e.exitCode() != null && e.exitCode() != 0
                ? "the builder exited with code " + e.exitCode()
                        + (e.message() == null || e.message().isBlank() ? "" : ": " + e.message())
                : e.message() == null || e.message().isBlank() ? "the build's job ended " + e.state() : e.message();
        String reason = e.reason() == null || e.reason().isBlank() ? "BuildFailed" : e.reason();
        return queries.end(b.id(), "failed", reason, detail, e.logTail());
    }

    /**
     * Asks the registry for the pushed tag with no transaction open (the claim of the round committed before), then
     * records what it answered.
     */
    private void catalogue(ImageBuildQueries.BuildRow b) throws Throwable {
        List<ImageBuilds.Refusal> refused = new ArrayList<>();
        ImageBuilds.Destination d = ImageBuilds.destination(b.destination(), refused);
        Optional<CredentialService.RegistryLogin> login = b.credential() == null
                ? Optional.empty()
                : VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(
                        () -> credentials.registryLogin(b.ownerId(), List.of(b.registryHost()))));
        RegistryClient.Outcome o = registry.check(d.reference(), d.tag(), login)
                .await()
                .atMost(config.registryTimeout().multipliedBy(3));
        record(b, o);
    }

    /**
     * Puts the image in the catalogue and ends the build, or fails it, only if the build is still {@code pushed}: its
     * row is locked and compared first, so a change made while the registry was asked (the build stopped, another
     * replica recorded it) wins and nothing is written. Whether it was written. Blocking.
     */
    boolean record(ImageBuildQueries.BuildRow b, RegistryClient.Outcome o) throws Throwable {
        ImageBuilds.Destination d = ImageBuilds.destination(b.destination(), new ArrayList<>());
        return VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> queries.lockPushed(b.id())
                .flatMap(still -> !still
                        ? Uni.createFrom().item(false)
                        : ends.of(b.jobPublicId())
                                .flatMap(e -> {
                                    String tail = e.map(JobEnds.End::logTail).orElse(null);
                                    if (!"ok".equals(o.result())) {
                                        return queries.end(
                                                b.id(),
                                                "failed",
                                                "ImageNotInRegistry",
                                                "the build's job succeeded but the registry answered " + o.result()
                                                        + ": " + o.detail(),
                                                tail);
                                    }
                                    return entry(b, d, o)
                                            .flatMap(imageId -> queries.succeeded(b.id(), imageId, o.digest(), tail));
                                })
                                .map(n -> n == 1))));
    }

    /** The owner's entry of the reference with the tag (added when missing) and its check; the entry's id. */
    private Uni<Long> entry(ImageBuildQueries.BuildRow b, ImageBuilds.Destination d, RegistryClient.Outcome o) {
        String reference = d.reference().canonical();
        return queries.ownImage(b.ownerId(), reference)
                .flatMap(found -> {
                    if (found.isEmpty()) {
                        return images.insert(new ImageQueries.ImageRow(
                                        0,
                                        ImageIds.next(),
                                        reference,
                                        b.ownerId(),
                                        b.description(),
                                        ImageChecks.stored(List.of(d.tag())),
                                        b.cudaVersion(),
                                        ",",
                                        b.vendors(),
                                        b.kinds(),
                                        "private",
                                        null,
                                        null,
                                        null))
                                .map(Optional::orElseThrow);
                    }
                    ImageQueries.ImageRow i = found.get();
                    List<String> tags = new ArrayList<>(ImageChecks.listOf(i.tags()));
                    if (tags.contains(d.tag())) {
                        return Uni.createFrom().item(i.id());
                    }
                    tags.add(d.tag());
                    List<String> kept = tags.size() > ImageReferences.MAX_TAGS
                            ? tags.subList(tags.size() - ImageReferences.MAX_TAGS, tags.size())
                            : tags;
                    return images.update(withTags(i, kept))
                            .flatMap(x -> images.keepChecks(i.id(), kept))
                            .replaceWith(i.id());
                })
                .call(id -> images.recordCheck(new ImageQueries.CheckRow(
                        id, d.tag(), o.result(), o.detail(), o.digest(), o.mediaType(), clock.instant())));
    }

    private static ImageQueries.ImageRow withTags(ImageQueries.ImageRow i, List<String> tags) {
        return new ImageQueries.ImageRow(
                i.id(),
                i.publicId(),
                i.reference(),
                i.ownerId(),
                i.description(),
                ImageChecks.stored(tags),
                i.cudaVersion(),
                i.architectures(),
                i.vendors(),
                i.kinds(),
                i.visibility(),
                i.accountId(),
                i.createdAt(),
                i.updatedAt());
    }
}
