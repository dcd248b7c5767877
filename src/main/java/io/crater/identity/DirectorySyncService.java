package io.crater.identity;

import io.crater.platform.Actor;
import io.crater.platform.ApiException;
import io.crater.platform.AuditTrail;
import io.crater.platform.Leadership;
import io.crater.platform.Sql;
import io.crater.platform.Threads;
import io.crater.policy.DirectorySync;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * The directory sync: every linked user is looked up in the directory; users gone from it are disabled, and the
 * memberships its groups grant are added, changed or removed (never those granted by hand). It runs every
 * {@code crater.ldap.sync-interval} on the leader and when a platform admin asks, one run at a time on its own
 * thread; the directory is read outside any transaction, the changes are written in one. A directory that cannot
 * be reached changes nothing: users are never disabled because the directory is down.
 */
@ApplicationScoped
class DirectorySyncService {

    private static final Logger LOG = Logger.getLogger(DirectorySyncService.class);

    @Inject
    LdapDirectory directory;

    @Inject
    DirectoryGrants grants;

    @Inject
    UserAccounts accounts;

    @Inject
    DirectorySyncs results;

    @Inject
    AuditTrail audit;

    @Inject
    Leadership leadership;

    @Inject
    Clock clock;

    private final ScheduledExecutorService worker = Threads.scheduler("crater-directory-sync");

    /** A user linked to the directory. */
    private record Link(long userId, String username, String dn, boolean disabled) {
        static final String COLUMNS = "e.user_id, u.username, e.subject, u.disabled";

        static Link of(Object[] r) {
            return new Link(Sql.longOf(r[0]), (String) r[1], (String) r[2], Boolean.TRUE.equals(r[3]));
        }
    }

    void onStart(@Observes StartupEvent event) {
        long every = directory.config().syncInterval().toMillis();
        if (directory.enabled() && every > 0) {
            worker.scheduleWithFixedDelay(this::tick, every, every, TimeUnit.MILLISECONDS);
        }
    }

    void onStop(@Observes ShutdownEvent event) {
        worker.shutdownNow();
    }

    private void tick() {
        if (leadership.leading()) {
            run("schedule");
        }
    }

    /** Runs a sync now, after any that is running, and answers with its result. */
    Uni<DirectorySyncs.Result> syncNow(Caller caller) {
        UserService.requireAdmin(caller);
        if (!directory.enabled()) {
            return Uni.createFrom()
                    .failure(ApiException.conflict(
                            "DirectoryNotConfigured", "no directory is configured (crater.ldap.enabled=false)"));
        }
        return Uni.createFrom().completionStage(CompletableFuture.supplyAsync(() -> run("admin"), worker));
    }

    /** One whole sync, on the sync's thread; its result is stored whatever happened. */
    DirectorySyncs.Result run(String trigger) {
        Instant started = clock.instant();
        List<String> errors = new ArrayList<>();
        DirectorySyncs.Counts counts = DirectorySyncs.Counts.NONE;
        String outcome;
        try {
            counts = sync(errors);
            outcome = errors.isEmpty() ? "ok" : "partial";
        } catch (LdapClient.Unavailable e) {
            errors.add(e.getMessage());
            outcome = "failed";
        } catch (Throwable e) {
            LOG.warn("directory sync failed", e);
            errors.add("the sync failed: " + e.getMessage());
            outcome = "failed";
        }
        DirectorySyncs.Result result = new DirectorySyncs.Result(
                directory.source(), trigger, outcome, started, clock.instant(), counts, List.copyOf(errors));
        try {
            VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> results.store(result)));
        } catch (Throwable e) {
            LOG.warn("the directory sync's result could not be stored", e);
        }
        if (!"ok".equals(outcome)) {
            LOG.warnf("directory sync (%s): %s", outcome, String.join("; ", errors));
        }
        return result;
    }

    private DirectorySyncs.Counts sync(List<String> errors) throws Throwable {
        List<DirectorySync.GroupMapping> mappings = mappings(errors);
        List<Link> links = VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(() -> Sql.rows(
                        "SELECT " + Link.COLUMNS + " FROM external_identities e JOIN users u ON u.id = e.user_id"
                                + " WHERE e.provider = ?1 ORDER BY e.user_id",
                        directory.source())
                .map(rows -> rows.stream().map(Link::of).toList())));
        Map<Long, List<DirectorySync.Membership>> have =
                VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(() ->
                        grants.teamMemberships(links.stream().map(Link::userId).toList())));
        List<DirectorySync.UserState> states = new ArrayList<>();
        for (Link l : links) {
            Optional<LdapClient.Found> found = directory.client().lookup(l.dn(), l.username());
            states.add(new DirectorySync.UserState(
                    l.userId(),
                    l.username(),
                    found.isPresent(),
                    l.disabled(),
                    found.map(LdapClient.Found::groups).orElse(List.of()),
                    have.getOrDefault(l.userId(), List.of())));
        }
        DirectorySync.Plan plan = DirectorySync.plan(directory.source(), mappings, states);
        Map<DirectorySync.Kind, Integer> done =
                VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> disable(plan.disable(), links)
                        .flatMap(v -> grants.apply(directory.source(), plan.changes(), Actor.system()))));
        int linked = VertxContextSupport.subscribeAndAwait(
                () -> Panache.withSession(() -> results.linkedSince(directory.source())));
        return new DirectorySyncs.Counts(
                links.size(),
                linked,
                plan.disable().size(),
                done.getOrDefault(DirectorySync.Kind.ADD, 0),
                done.getOrDefault(DirectorySync.Kind.REMOVE, 0),
                done.getOrDefault(DirectorySync.Kind.ROLE, 0));
    }

    /** The group mappings whose accounts exist; the others are reported and left out. */
    private List<DirectorySync.GroupMapping> mappings(List<String> errors) throws Throwable {
        List<DirectorySync.GroupMapping> all = directory.mappings();
        Map<String, Long> known =
                VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(() -> accounts.activeTeams(
                        all.stream().map(DirectorySync.GroupMapping::account).toList())));
        List<String> unknown = DirectorySync.unknownAccounts(all, new HashSet<>(known.keySet()));
        unknown.forEach(a -> errors.add("a group mapping names account '" + a + "', which is not an active team"
                + " account; its mapping is left out"));
        return all.stream().filter(m -> !unknown.contains(m.account())).toList();
    }

    /** Disables users gone from the directory and ends their sessions, in the caller's transaction. */
    private Uni<Void> disable(List<Long> ids, List<Link> links) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (Link l : links) {
            if (!ids.contains(l.userId())) {
                continue;
            }
            chain = chain.flatMap(v -> Sql.update(
                            "UPDATE users SET disabled = TRUE, updated_at = now() WHERE id = ?1", l.userId())
                    .flatMap(x -> Sql.update(
                            "UPDATE refresh_tokens SET revoked_at = now() WHERE user_id = ?1 AND revoked_at IS NULL",
                            l.userId()))
                    .flatMap(x -> audit.record(
                            Actor.system(),
                            "user.disable",
                            "user",
                            l.username(),
                            Map.of("disabled", false),
                            Map.of("disabled", true, "reason", "gone from " + directory.source()))));
        }
        return chain;
    }
}
