package io.crater.account;

import io.crater.cluster.AcceleratorCatalogue;
import io.crater.cluster.AcceleratorModel;
import io.crater.platform.Leadership;
import io.crater.platform.PgNotifications;
import io.crater.platform.Sql;
import io.crater.platform.Threads;
import io.crater.policy.Quantities;
import io.crater.volcano.PodGroup;
import io.crater.volcano.VolcanoQueue;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.ObservesAsync;
import jakarta.inject.Inject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Keeps Volcano's Queues as the design says: {@code crater-<slug>} per team account with a coarse
 * {@code capability} only (Σ max + active grants of the models sharing a resource name, plus cpu and memory),
 * one {@code crater-personal} for all personal accounts, one reclaimable {@code crater-backfill}. A hand-edited
 * queue is put back, a missing one recreated, and a queue Crater no longer wants is deleted only once no
 * PodGroup uses it. Runs on the leader only ({@link Leadership}), so two replicas never write different
 * capabilities one after the other: when it starts to lead, after every quota change (on any replica: the change
 * reaches the leader through {@code NOTIFY crater_queues}), when a queue changes, and every 30 seconds.
 */
@ApplicationScoped
public class QueueReconciler {

    private static final Logger LOG = Logger.getLogger(QueueReconciler.class);
    static final String MANAGED = "crater.io/managed-by";
    static final String PERSONAL = "crater-personal";
    static final String BACKFILL = "crater-backfill";
    static final String CHANNEL = "crater_queues";

    @Inject
    Leadership leadership;

    @Inject
    PgNotifications notifications;

    @Inject
    QuotaGrants grants;

    @Inject
    java.time.Clock clock;

    @Inject
    KubernetesClient client;

    @Inject
    AcceleratorCatalogue catalogue;

    private final ScheduledExecutorService worker = Threads.scheduler("crater-queue-reconciler");
    private final AtomicBoolean pending = new AtomicBoolean();
    private volatile Watch watch;

    void onStart(@Observes @Priority(50) StartupEvent event) {
        notifications.listen(CHANNEL, payload -> request());
        notifications.onReconnect(this::request);
        leadership.whenLeading(this::request);
        worker.execute(this::watchQueues);
    }

    void onStop(@Observes ShutdownEvent event) {
        if (watch != null) {
            watch.close();
        }
        worker.shutdownNow();
    }

    /** A quota changed on this replica: tells the leader, wherever it runs. */
    void onQuotaChanged(@ObservesAsync AccountService.QuotaChanged event) {
        if (leadership.leading()) {
            request();
            return;
        }
        try {
            VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(
                    () -> Sql.rows("SELECT 1 FROM pg_notify('" + CHANNEL + "', ?1)", event.account())));
        } catch (Throwable e) {
            LOG.debugf("telling the leader of a quota change failed (%s); its 30 s resync covers it", e.getMessage());
        }
    }

    @Scheduled(every = "30s", delayed = "30s")
    void resync() {
        request();
    }

    /** Asks for a reconciliation soon; requests while one is queued coalesce. */
    public void request() {
        if (pending.compareAndSet(false, true)) {
            worker.schedule(this::run, 100, TimeUnit.MILLISECONDS);
        }
    }

    private void watchQueues() {
        try {
            watch = client.resources(VolcanoQueue.class)
                    .withLabel(MANAGED, "crater")
                    .watch(new Watcher<>() {
                        @Override
                        public void eventReceived(Action action, VolcanoQueue resource) {
                            request();
                        }

                        @Override
                        public void onClose(WatcherException cause) {
                            worker.schedule(QueueReconciler.this::watchQueues, 5, TimeUnit.SECONDS);
                        }
                    });
        } catch (KubernetesClientException e) {
            LOG.debugf("watching Volcano Queues failed (%s); the periodic resync covers it", e.getMessage());
            worker.schedule(this::watchQueues, 10, TimeUnit.SECONDS);
        }
    }

    private void run() {
        pending.set(false);
        if (!leadership.leading()) {
            return;
        }
        try {
            apply(desired());
        } catch (Throwable e) {
            LOG.warnf("reconciling Volcano Queues failed: %s; retrying on the next resync", e.getMessage());
        }
    }

    /** An account's max of one resource (no resource when it has no quota). */
    record Capacity(long accountId, String slug, String kind, String resource, long milli) {
        static Capacity of(Object[] r) {
            return new Capacity(
                    Sql.longOf(r[0]), (String) r[1], (String) r[2], (String) r[3], r[4] == null ? 0 : Sql.longOf(r[4]));
        }
    }

    /** Every account's quotas and the grants in force. */
    record Stored(List<Capacity> quotas, List<QuotaGrants.Granted> grants) {}

    /** Desired queue name → capability (Kubernetes resource name → quantity), from the database. */
    Map<String, Map<String, String>> desired() throws Throwable {
        Stored stored = VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(() -> Sql.rows(
                        "SELECT a.id, a.slug, a.kind, q.resource, q.max_milli FROM accounts a"
                                + " LEFT JOIN quotas q ON q.account_id = a.id")
                .map(rows -> rows.stream().map(Capacity::of).toList())
                .flatMap(quotas -> grants.inForce(null, clock.instant()).map(g -> new Stored(quotas, g)))));
        Map<String, Long> granted = new HashMap<>();
        stored.grants()
                .forEach(g -> granted.merge(
                        g.accountId() + "/" + g.grant().resource(), g.grant().amount(), Long::sum));
        Map<String, String> resourceOf = catalogue.models().stream()
                .collect(Collectors.toMap(AcceleratorModel::key, AcceleratorModel::resource));
        Map<String, Map<String, Long>> milli = new TreeMap<>();
        milli.put(PERSONAL, new TreeMap<>());
        for (Capacity r : stored.quotas()) {
            String queue = "personal".equals(r.kind()) ? PERSONAL : "crater-" + r.slug();
            Map<String, Long> cap = milli.computeIfAbsent(queue, q -> new TreeMap<>());
            if (r.resource() != null) {
                String k8s = switch (r.resource()) {
                    case "cpu", "memory" -> r.resource();
                    default -> resourceOf.get(r.resource());
                };
                if (k8s != null) {
                    cap.merge(k8s, r.milli() + granted.getOrDefault(r.accountId() + "/" + r.resource(), 0L), Long::sum);
                }
            }
        }
        Map<String, Map<String, String>> out = new TreeMap<>();
        milli.forEach((q, cap) -> {
            Map<String, String> quantities = new TreeMap<>();
            cap.forEach((k, v) -> quantities.put(k, Quantities.format(v)));
            out.put(q, quantities);
        });
        out.put(BACKFILL, null);
        return out;
    }

    private void apply(Map<String, Map<String, String>> desired) {
        Map<String, VolcanoQueue> existing = new HashMap<>();
        client.resources(VolcanoQueue.class)
                .withLabel(MANAGED, "crater")
                .list()
                .getItems()
                .forEach(q -> existing.put(q.getMetadata().getName(), q));
        desired.forEach((name, capability) -> {
            VolcanoQueue current = existing.containsKey(name)
                    ? existing.get(name)
                    : client.resources(VolcanoQueue.class).withName(name).get();
            boolean backfill = name.equals(BACKFILL);
            if (current == null) {
                VolcanoQueue q = new VolcanoQueue();
                q.getMetadata().setName(name);
                q.getMetadata().setLabels(Map.of(MANAGED, "crater"));
                setSpec(q, capability, backfill);
                create(q);
            } else if (!matches(current, capability, backfill)) {
                current.getMetadata()
                        .setLabels(withManaged(current.getMetadata().getLabels()));
                setSpec(current, capability, backfill);
                client.resources(VolcanoQueue.class).resource(current).update();
                LOG.infof("Volcano Queue %s set to capability %s", name, capability);
            }
        });
        Set<String> inUse = null;
        for (String name : existing.keySet()) {
            if (desired.containsKey(name)) {
                continue;
            }
            if (inUse == null) {
                inUse = client.resources(PodGroup.class).inAnyNamespace().list().getItems().stream()
                        .map(g -> g.getSpec().queue)
                        .filter(Objects::nonNull)
                        .collect(Collectors.toSet());
            }
            if (!inUse.contains(name)) {
                client.resources(VolcanoQueue.class).withName(name).delete();
                LOG.infof("Volcano Queue %s deleted: no account needs it and no PodGroup uses it", name);
            }
        }
    }

    private void create(VolcanoQueue q) {
        try {
            client.resources(VolcanoQueue.class).resource(q).create();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
        }
    }

    private static Map<String, String> withManaged(Map<String, String> labels) {
        Map<String, String> out = new TreeMap<>(labels == null ? Map.of() : labels);
        out.put(MANAGED, "crater");
        return out;
    }

    private static void setSpec(VolcanoQueue q, Map<String, String> capability, boolean backfill) {
        q.getSpec().capability = capability == null ? null : new TreeMap<>(capability);
        q.getSpec().reclaimable = backfill;
        q.getSpec().weight = 1;
        q.getSpec().guarantee = null;
        q.getSpec().deserved = null;
    }

    private static boolean matches(VolcanoQueue q, Map<String, String> capability, boolean backfill) {
        Map<String, String> have =
                q.getSpec() == null || q.getSpec().capability == null ? null : normalize(q.getSpec().capability);
        Map<String, String> want = capability == null ? null : normalize(capability);
        boolean managed = q.getMetadata().getLabels() != null
                && "crater".equals(q.getMetadata().getLabels().get(MANAGED));
        return managed
                && Objects.equals(
                        have == null || have.isEmpty() ? null : have, want == null || want.isEmpty() ? null : want)
                && q.getSpec() != null
                && Objects.equals(q.getSpec().reclaimable, backfill)
                && q.getSpec().guarantee == null
                && q.getSpec().deserved == null;
    }

    private static Map<String, String> normalize(Map<String, String> m) {
        Map<String, String> out = new TreeMap<>();
        m.forEach((k, v) -> out.put(k, Quantities.format(Quantities.toMilli(v))));
        return out;
    }
}
