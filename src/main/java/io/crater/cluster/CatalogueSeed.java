package io.crater.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.crater.platform.Actor;
import io.crater.platform.Problem;
import io.crater.platform.Sql;
import io.crater.platform.Unis;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The accelerator models a deployment declares ({@code crater.seed}, the chart's {@code catalogue.models}): at start
 * each model whose key the catalogue lacks is added, as an admin adding it would, audited as {@code crater:seed}. A
 * model the catalogue has is left as it is, whatever the declaration says: after it is there, admins curate it in
 * the console or the API (docs/catalogue.md). A declaration that is not valid stops the start with its errors.
 */
@ApplicationScoped
public class CatalogueSeed {

    private static final Logger LOG = Logger.getLogger(CatalogueSeed.class);
    static final Actor SEED = new Actor(null, "crater:seed", null, null);
    /** Serialises replicas that start together. */
    static final long LOCK_KEY = 0x637261746572L + 7;

    /** The part of {@code crater.seed} this reads. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Seed(List<CatalogueService.NewModel> models) {}

    @ConfigProperty(name = "crater.seed")
    Optional<String> seed;

    @Inject
    ObjectMapper json;

    @Inject
    io.crater.platform.AuditTrail audit;

    void onStart(@Observes @Priority(14) StartupEvent event) throws Throwable {
        List<CatalogueService.NewModel> models = models(seed, json);
        if (models.isEmpty()) {
            return;
        }
        List<String> added = VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> apply(models)));
        LOG.infof("catalogue: %d declared models, %d added (%s)", models.size(), added.size(), added);
    }

    /** The models of a declaration, checked; throws naming every error. */
    public static List<CatalogueService.NewModel> models(Optional<String> seed, ObjectMapper json) {
        if (seed.isEmpty() || seed.get().isBlank()) {
            return List.of();
        }
        Seed parsed;
        try {
            parsed = json.readValue(seed.get(), Seed.class);
        } catch (Exception e) {
            throw new IllegalStateException("crater.seed is not the JSON Crater expects: " + e.getMessage(), e);
        }
        List<CatalogueService.NewModel> models = parsed.models() == null ? List.of() : parsed.models();
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < models.size(); i++) {
            for (Problem.FieldError e : ModelFields.check(models.get(i))) {
                problems.add("models[" + i + "]." + e.field() + ": " + e.message());
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException("crater.seed: " + String.join("; ", problems));
        }
        return models;
    }

    /** Adds the models the catalogue lacks (by key, and whose mapping no model has); the keys added. */
    Uni<List<String>> apply(List<CatalogueService.NewModel> models) {
        List<String> added = new ArrayList<>();
        return Sql.count("SELECT count(*) FROM (SELECT pg_advisory_xact_lock(?1)) AS locked", LOCK_KEY)
                .flatMap(x -> Unis.sequentially(
                        models,
                        m -> Sql.update(
                                        "INSERT INTO accelerator_models (key, resource, label_key, label_value, display_name,"
                                                + " vendor, restricted, memory_mib, memory_resource)"
                                                + " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) ON CONFLICT DO NOTHING",
                                        m.key(),
                                        m.resource(),
                                        m.labelKey(),
                                        m.labelValue(),
                                        m.displayName().trim(),
                                        m.vendor().trim(),
                                        Boolean.TRUE.equals(m.restricted()),
                                        m.memoryMiB(),
                                        m.memoryResource())
                                .flatMap(n -> {
                                    if (n == 0) {
                                        return Uni.createFrom().voidItem();
                                    }
                                    added.add(m.key());
                                    return audit.record(
                                                    SEED,
                                                    "accelerator-model.create",
                                                    "accelerator-model",
                                                    m.key(),
                                                    null,
                                                    CatalogueService.mappingOf(m))
                                            .flatMap(v -> Sql.rows(
                                                            "SELECT pg_notify('" + AcceleratorCatalogue.CHANNEL
                                                                    + "', ?1)",
                                                            m.key())
                                                    .replaceWithVoid());
                                })))
                .replaceWith(added);
    }
}
