package io.crater.cluster;

import io.crater.platform.Sql;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The accelerator models Crater knows, loaded from the database. */
@ApplicationScoped
public class AcceleratorCatalogue {

    private volatile List<AcceleratorModel> models = List.of();

    void onStart(@Observes @Priority(15) StartupEvent event) throws Throwable {
        reload();
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
        static final String COLUMNS = "key, resource, label_key, label_value, display_name, vendor, restricted";

        static AcceleratorModel of(Object[] r) {
            return new AcceleratorModel(
                    (String) r[0], (String) r[1], (String) r[2], (String) r[3], (String) r[4], (String) r[5], (Boolean)
                            r[6]);
        }
    }

    public List<AcceleratorModel> models() {
        return models;
    }

    /** The catalogued model of a node offering {@code resource}, from its labels. */
    public Optional<AcceleratorModel> modelOf(String resource, Map<String, String> labels) {
        return models.stream()
                .filter(m -> m.resource().equals(resource) && m.matches(labels))
                .findFirst();
    }

    /** The accelerator resource names of the catalogue. */
    public List<String> resources() {
        return models.stream().map(AcceleratorModel::resource).distinct().toList();
    }
}
