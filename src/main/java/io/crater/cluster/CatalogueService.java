package io.crater.cluster;

import io.crater.audit.AuditService;
import io.crater.identity.Caller;
import io.crater.platform.ApiException;
import io.crater.platform.Problem;
import io.crater.platform.Sql;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Edits of the accelerator catalogue, audited, and the in-memory copy kept current. */
@ApplicationScoped
public class CatalogueService {

    /** Fields an admin may change. */
    public record UpdateModel(String displayName, String vendor, Boolean restricted) {}

    @Inject
    AcceleratorCatalogue catalogue;

    @Inject
    AuditService audit;

    public List<AcceleratorModel> models() {
        return catalogue.models();
    }

    public Uni<AcceleratorModel> update(String key, UpdateModel req, Caller caller) {
        if (!caller.platformAdmin()) {
            return Uni.createFrom()
                    .failure(ApiException.forbidden(
                            "NotPlatformAdmin", "only platform administrators curate the catalogue"));
        }
        List<Problem.FieldError> errors = new ArrayList<>();
        if (req == null) {
            errors.add(new Problem.FieldError("body", "required"));
        } else {
            if (req.displayName() != null
                    && (req.displayName().isBlank() || req.displayName().length() > 100)) {
                errors.add(new Problem.FieldError("displayName", "1 to 100 characters"));
            }
            if (req.vendor() != null && (req.vendor().isBlank() || req.vendor().length() > 100)) {
                errors.add(new Problem.FieldError("vendor", "1 to 100 characters"));
            }
        }
        if (!errors.isEmpty()) {
            return Uni.createFrom()
                    .failure(ApiException.badRequest("InvalidRequest", "the model cannot be changed as given", errors));
        }
        AcceleratorModel before = catalogue.models().stream()
                .filter(m -> m.key().equals(key))
                .findFirst()
                .orElseThrow(() -> ApiException.notFound("no accelerator model '" + key + "'"));
        String display = req.displayName() == null
                ? before.displayName()
                : req.displayName().trim();
        String vendor = req.vendor() == null ? before.vendor() : req.vendor().trim();
        boolean restricted = req.restricted() == null ? before.restricted() : req.restricted();
        return Panache.withTransaction(() -> Sql.update(
                                "UPDATE accelerator_models SET display_name = ?2, vendor = ?3, restricted = ?4 WHERE key = ?1",
                                key,
                                display,
                                vendor,
                                restricted)
                        .flatMap(n -> audit.record(
                                caller.actor(null),
                                "accelerator-model.update",
                                "accelerator-model",
                                key,
                                Map.of(
                                        "displayName",
                                        before.displayName(),
                                        "vendor",
                                        before.vendor(),
                                        "restricted",
                                        before.restricted()),
                                Map.of("displayName", display, "vendor", vendor, "restricted", restricted))))
                .flatMap(v -> catalogue.reloadAsync())
                .map(v -> catalogue.models().stream()
                        .filter(m -> m.key().equals(key))
                        .findFirst()
                        .orElseThrow());
    }
}
