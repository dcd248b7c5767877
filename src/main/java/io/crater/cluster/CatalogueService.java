package io.crater.cluster;

import io.crater.audit.AuditService;
import io.crater.identity.Caller;
import io.crater.platform.ApiException;
import io.crater.platform.Problem;
import io.crater.platform.Sql;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Edits of the accelerator catalogue (platform admins), audited, announced to every replica, and the in-memory copy
 * kept current: add, change names and memory, retire and bring back, delete what nothing uses.
 */
@ApplicationScoped
public class CatalogueService {

    /** A new model as an administrator (or an accepted proposal) gives it. */
    @org.eclipse.microprofile.openapi.annotations.media.Schema(name = "NewAcceleratorModel")
    public record NewModel(
            String key,
            String resource,
            String labelKey,
            String labelValue,
            String displayName,
            String vendor,
            Long memoryMiB,
            String memoryResource,
            Boolean restricted) {}

    /** Fields an admin may change. */
    public record UpdateModel(String displayName, String vendor, Boolean restricted, Long memoryMiB) {}

    @Inject
    AcceleratorCatalogue catalogue;

    @Inject
    AuditService audit;

    @Inject
    Instance<CatalogueUses> uses;

    @Inject
    Clock clock;

    public List<AcceleratorModel> models() {
        return catalogue.models();
    }

    /** Adds a model; 409 when its key or its mapping (resource, label, memory resource) is taken. */
    public Uni<AcceleratorModel> add(NewModel req, Caller caller) {
        requireAdmin(caller);
        List<Problem.FieldError> errors = ModelFields.check(req);
        if (!errors.isEmpty()) {
            throw ApiException.badRequest("InvalidModel", "the model cannot be added as given", errors);
        }
        if (catalogue.model(req.key()).isPresent()) {
            throw ApiException.conflict("ModelExists", "the catalogue already has a model '" + req.key() + "'");
        }
        catalogue.models().stream().filter(m -> sameMapping(m, req)).findFirst().ifPresent(m -> {
            throw ApiException.conflict(
                    "ModelMappingTaken",
                    "model '" + m.key() + "' already maps " + req.resource()
                            + (req.labelKey() == null ? "" : " on " + req.labelKey() + "=" + req.labelValue()));
        });
        boolean restricted = Boolean.TRUE.equals(req.restricted());
        return Panache.withTransaction(() -> Sql.update(
                                "INSERT INTO accelerator_models (key, resource, label_key, label_value, display_name,"
                                        + " vendor, restricted, memory_mib, memory_resource)"
                                        + " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) ON CONFLICT DO NOTHING",
                                req.key(),
                                req.resource(),
                                req.labelKey(),
                                req.labelValue(),
                                req.displayName().trim(),
                                req.vendor().trim(),
                                restricted,
                                req.memoryMiB(),
                                req.memoryResource())
                        .invoke(n -> {
                            if (n == 0) {
                                throw ApiException.conflict(
                                        "ModelExists", "model '" + req.key() + "' or its mapping was just added");
                            }
                        })
                        .flatMap(n -> announce(req.key()))
                        .flatMap(v -> audit.record(
                                caller.actor(null),
                                "accelerator-model.create",
                                "accelerator-model",
                                req.key(),
                                null,
                                mappingOf(req))))
                .flatMap(v -> reloaded(req.key()));
    }

    private static boolean sameMapping(AcceleratorModel m, NewModel req) {
        return m.resource().equals(req.resource())
                && Objects.equals(m.labelKey(), req.labelKey())
                && Objects.equals(m.labelValue(), req.labelValue())
                && Objects.equals(m.memoryResource(), req.memoryResource())
                && (m.memoryResource() == null || Objects.equals(m.memoryMiB(), req.memoryMiB()));
    }

    static Map<String, Object> mappingOf(NewModel req) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("resource", req.resource());
        m.put("label", req.labelKey() == null ? "" : req.labelKey() + "=" + req.labelValue());
        m.put("displayName", req.displayName().trim());
        m.put("vendor", req.vendor().trim());
        m.put("memoryMiB", req.memoryMiB() == null ? "" : req.memoryMiB());
        m.put("memoryResource", req.memoryResource() == null ? "" : req.memoryResource());
        return m;
    }

    public Uni<AcceleratorModel> update(String key, UpdateModel req, Caller caller) {
        requireAdmin(caller);
        List<Problem.FieldError> errors = new ArrayList<>();
        if (req == null) {
            errors.add(new Problem.FieldError("body", "required"));
        } else {
            if (req.displayName() != null) {
                ModelFields.text("displayName", req.displayName(), errors);
            }
            if (req.vendor() != null) {
                ModelFields.text("vendor", req.vendor(), errors);
            }
            ModelFields.memory(req.memoryMiB(), errors);
        }
        if (!errors.isEmpty()) {
            throw ApiException.badRequest("InvalidRequest", "the model cannot be changed as given", errors);
        }
        AcceleratorModel before = existing(key);
        String display = req.displayName() == null
                ? before.displayName()
                : req.displayName().trim();
        String vendor = req.vendor() == null ? before.vendor() : req.vendor().trim();
        boolean restricted = req.restricted() == null ? before.restricted() : req.restricted();
        Long memory = req.memoryMiB() == null ? before.memoryMiB() : req.memoryMiB();
        return Panache.withTransaction(() -> Sql.update(
                                "UPDATE accelerator_models SET display_name = ?2, vendor = ?3, restricted = ?4,"
                                        + " memory_mib = ?5 WHERE key = ?1",
                                key,
                                display,
                                vendor,
                                restricted,
                                memory)
                        .flatMap(n -> announce(key))
                        .flatMap(n -> audit.record(
                                caller.actor(null),
                                "accelerator-model.update",
                                "accelerator-model",
                                key,
                                editable(
                                        before.displayName(), before.vendor(), before.restricted(), before.memoryMiB()),
                                editable(display, vendor, restricted, memory))))
                .flatMap(v -> reloaded(key));
    }

    private static Map<String, Object> editable(String display, String vendor, boolean restricted, Long memory) {
        return Map.of(
                "displayName",
                display,
                "vendor",
                vendor,
                "restricted",
                restricted,
                "memoryMiB",
                memory == null ? "" : memory);
    }

    /** Retires a model (true) or brings it back (false); idempotent. */
    public Uni<AcceleratorModel> retire(String key, boolean retired, Caller caller) {
        requireAdmin(caller);
        AcceleratorModel before = existing(key);
        if (before.retired() == retired) {
            return Uni.createFrom().item(before);
        }
        return Panache.withTransaction(() -> Sql.update(
                                "UPDATE accelerator_models SET retired_at = ?2 WHERE key = ?1",
                                key,
                                retired ? clock.instant() : null)
                        .flatMap(n -> announce(key))
                        .flatMap(n -> audit.record(
                                caller.actor(null),
                                retired ? "accelerator-model.retire" : "accelerator-model.unretire",
                                "accelerator-model",
                                key,
                                Map.of("retired", before.retired()),
                                Map.of("retired", retired))))
                .flatMap(v -> reloaded(key));
    }

    /** Deletes a model nothing uses; 409 {@code ModelInUse} naming every use otherwise. */
    public Uni<Void> delete(String key, Caller caller) {
        requireAdmin(caller);
        AcceleratorModel before = existing(key);
        return Panache.withTransaction(() -> Sql.row(
                                "SELECT key FROM accelerator_models WHERE key = ?1 FOR UPDATE", key)
                        .flatMap(locked -> usesOf(key))
                        .flatMap(found -> {
                            if (!found.isEmpty()) {
                                throw inUse(key, found);
                            }
                            return Sql.update("DELETE FROM accelerator_models WHERE key = ?1", key);
                        })
                        .flatMap(n -> announce(key))
                        .flatMap(n -> audit.record(
                                caller.actor(null),
                                "accelerator-model.delete",
                                "accelerator-model",
                                key,
                                Map.of("resource", before.resource(), "displayName", before.displayName()),
                                null)))
                .flatMap(v -> catalogue.reloadAsync());
    }

    private Uni<List<CatalogueUses.Use>> usesOf(String key) {
        Uni<List<CatalogueUses.Use>> all = Uni.createFrom().item(List.of());
        for (CatalogueUses feature : uses) {
            all = all.flatMap(so -> feature.of(key).map(more -> {
                List<CatalogueUses.Use> out = new ArrayList<>(so);
                more.stream().filter(u -> u.count() > 0).forEach(out::add);
                return out;
            }));
        }
        return all;
    }

    private static ApiException inUse(String key, List<CatalogueUses.Use> found) {
        String named =
                found.stream().map(u -> u.what() + " (" + u.count() + ")").collect(Collectors.joining(", "));
        List<Problem.FieldError> errors = found.stream()
                .map(u -> new Problem.FieldError(u.what(), Long.toString(u.count())))
                .toList();
        return new ApiException(
                409,
                "ModelInUse",
                "Conflict",
                "model '" + key + "' is used by " + named + "; retire it instead: it then takes no new jobs or"
                        + " quota grants",
                null,
                errors,
                null);
    }

    /** Tells every replica to read the catalogue again, at this transaction's commit. */
    private static Uni<Void> announce(String key) {
        return Sql.rows("SELECT pg_notify('" + AcceleratorCatalogue.CHANNEL + "', ?1)", key)
                .replaceWithVoid();
    }

    private AcceleratorModel existing(String key) {
        return catalogue.model(key).orElseThrow(() -> ApiException.notFound("no accelerator model '" + key + "'"));
    }

    private Uni<AcceleratorModel> reloaded(String key) {
        return catalogue.reloadAsync().map(v -> existing(key));
    }

    static void requireAdmin(Caller caller) {
        if (!caller.platformAdmin()) {
            throw ApiException.forbidden("NotPlatformAdmin", "only platform administrators curate the catalogue");
        }
    }
}
