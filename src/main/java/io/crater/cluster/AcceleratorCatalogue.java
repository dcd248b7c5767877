package io.crater.cluster;

import io.crater.platform.PgNotifications;
import io.crater.platform.Sql;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The accelerator models Crater knows, loaded from the database and read again on every replica when an edit is
 * announced on {@link #CHANNEL} (or the listening connection was lost, since announcements are lost with it).
 */
@ApplicationScoped
public class AcceleratorCatalogue {

    /** The NOTIFY channel catalogue edits are announced on. */
    static final String CHANNEL = "crater_catalogue";

    private static final Logger LOG = Logger.getLogger(AcceleratorCatalogue.class);

    @Inject
    PgNotifications notifications;

    private volatile List<AcceleratorModel> models = List.of();

    void onStart(@Observes @Priority(15) StartupEvent event) throws Throwable {
        reload();
        notifications.listen(CHANNEL, key -> reloadLater());
        notifications.onReconnect(this::reloadLater);
    }

    private void reloadLater() {
        Infrastructure.getDefaultWorkerPool().execute(() -> {
            try {
                reload();
            } catch (Throwable e) {
                LOG.warnf(e, "the accelerator catalogue could not be read again");
            }
        });
    }

    public void reload() throws Throwable {
        VertxContextSupport.subscribeAndAwait(this::reloadAsync);
    }

    /** Reads the catalogue again (after an edit). */
    public Uni<Void> reloadAsync() {
        return Panache.withSession(
                        () -> Sql.rows("SELECT " + ModelRows.COLUMNS + " FROM accelerator_models ORDER BY key"))
                .invoke(rows -> models = rows.stream().map(ModelRows::of).toList())
                .replaceWithVoid();
    }

    /** The columns of a catalogue entry and how they read. */
    private static final class ModelRows {
        static final String COLUMNS = "key, resource, label_key, label_value, display_name, vendor, restricted,"
                + " memory_mib, memory_resource, retired_at";

        static AcceleratorModel of(Object[] r) {
            java.time.Instant retiredAt = r[9] == null ? null : Sql.instant(r[9]);
            return new AcceleratorModel(
                    (String) r[0],
                    (String) r[1],
                    (String) r[2],
                    (String) r[3],
                    (String) r[4],
                    (String) r[5],
                    (Boolean) r[6],
                    r[7] == null ? null : ((Number) r[7]).longValue(),
                    (String) r[8],
                    retiredAt != null,
                    retiredAt);
        }
    }

    public List<AcceleratorModel> models() {
        return models;
    }

    /**
     * The catalogued model of a node offering {@code resource}, from its labels: a model naming a label before one
     * named by the resource alone, a whole card before a shared (vGPU) one.
     */
    public Optional<AcceleratorModel> modelOf(String resource, Map<String, String> labels) {
        return models.stream()
                .filter(m -> m.resource().equals(resource) && m.matches(labels))
                .min(java.util.Comparator.comparing((AcceleratorModel m) -> m.labelKey() == null)
                        .thenComparing(m -> m.memoryResource() != null));
    }

    /** The catalogue as the node sync reads it. */
    public List<io.crater.policy.CatalogueSync.Entry> syncEntries() {
        return models.stream()
                .map(m -> new io.crater.policy.CatalogueSync.Entry(
                        m.key(), m.resource(), m.labelKey(), m.labelValue(), m.memoryResource()))
                .toList();
    }

    /** The model of this key, retired or not. */
    public Optional<AcceleratorModel> model(String key) {
        return models.stream().filter(m -> m.key().equals(key)).findFirst();
    }

    /** The accelerator resource names of the catalogue. */
    public List<String> resources() {
        return models.stream().map(AcceleratorModel::resource).distinct().toList();
    }
}
