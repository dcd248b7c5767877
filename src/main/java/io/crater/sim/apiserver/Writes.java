package io.crater.sim.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.http.HttpServerRequest;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

/**
 * The write requests (create, update, patch, server-side apply, delete) with the options the real API server takes on
 * them: {@code dryRun=All} (everything is checked and the object answered as it would be stored, nothing is stored and
 * no watch hears of it), {@code fieldValidation} ({@link FieldValidation}), {@code fieldManager} and {@code force}
 * ({@link ServerSideApply}). The answer carries the status code, the object and the warnings for the
 * {@code Warning} header.
 */
final class Writes {

    /** A write's options, from its query. */
    record Options(boolean dryRun, String validation, String manager) {
        static Options of(HttpServerRequest req) {
            String dryRun = req.getParam("dryRun");
            if (dryRun != null && !dryRun.isEmpty() && !dryRun.equals("All")) {
                throw new ApiError(
                        400, "BadRequest", "dryRun: Unsupported value: \"" + dryRun + "\": supported values: \"All\"");
            }
            return new Options(
                    "All".equals(dryRun),
                    FieldValidation.directive(req.getParam("fieldValidation")),
                    req.getParam("fieldManager"));
        }
    }

    /** What a write answers. */
    record Result(int code, String json, List<String> warnings) {}

    private final KubeStore store;
    private final Clock clock;

    Writes(KubeStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    Result create(ApiResource r, String version, String namespace, ObjectNode body, Options o) {
        List<String> warnings = validate(r, version, body, o);
        if (!o.dryRun()) {
            return new Result(201, store.create(r, version, namespace, body).json(), warnings);
        }
        ObjectNode meta = StoredObjects.metadata(body);
        String name = StoredObjects.text(meta, "name");
        if (name == null || name.isEmpty()) {
            String prefix = StoredObjects.text(meta, "generateName");
            if (prefix == null || prefix.isEmpty()) {
                throw new ApiError(422, "Invalid", r.kind() + " is invalid: metadata.name: Required value");
            }
            name = prefix + StoredObjects.randomSuffix();
            meta.put("name", name);
        }
        StoredObjects.checkName(r, name);
        if (r.namespaced()) {
            store.get(store.resource("", "v1", "namespaces"), null, namespace);
            meta.put("namespace", namespace);
        }
        if (exists(r, namespace, name)) {
            throw new ApiError(409, "AlreadyExists", StoredObjects.plural(r) + " \"" + name + "\" already exists");
        }
        meta.put("uid", UUID.randomUUID().toString()).put("creationTimestamp", now());
        body.put("apiVersion", r.apiVersion(version)).put("kind", r.kind());
        StoredObjects.initialStatus(r, body);
        return new Result(201, body.toString(), warnings);
    }

    Result update(ApiResource r, String version, String ns, String name, ObjectNode body, boolean status, Options o) {
        List<String> warnings = validate(r, version, body, o);
        if (o.dryRun()) {
            store.get(r, ns, name);
            return new Result(200, body.toString(), warnings);
        }
        return new Result(200, store.update(r, version, ns, name, body, status).json(), warnings);
    }

    /** A patch of any served type; an apply creates the object when it is missing. */
    Result patch(
            ApiResource r,
            String version,
            String ns,
            String name,
            String mediaType,
            JsonNode patch,
            boolean status,
            Options o) {
        if (mediaType.equals("application/apply-patch+yaml")) {
            return apply(r, version, ns, name, patch, status, o);
        }
        KubeStore.Entry old = store.get(r, ns, name);
        JsonNode patched;
        try {
            patched = Patches.apply(mediaType, patch, old.object());
        } catch (ApiError e) {
            throw e;
        } catch (RuntimeException e) {
            throw new ApiError(422, "Invalid", "the patch cannot be applied: " + e.getMessage());
        }
        if (!(patched instanceof ObjectNode body)) {
            throw new ApiError(422, "Invalid", "the patch does not leave an object");
        }
        JsonNode unpruned = body.deepCopy();
        List<String> warnings = validate(r, version, body, o);
        if (o.dryRun()) {
            return new Result(200, body.toString(), warnings);
        }
        if (!unpruned.equals(body)) {
            // Fields were pruned: the pruned object replaces the one patched (a conflict if it changed meanwhile).
            StoredObjects.metadata(body).put("resourceVersion", Long.toString(old.revision()));
            return new Result(
                    200, store.update(r, version, ns, name, body, status).json(), warnings);
        }
        return new Result(
                200, store.patch(r, ns, name, mediaType, patch, status).json(), warnings);
    }

    private Result apply(
            ApiResource r, String version, String ns, String name, JsonNode patch, boolean status, Options o) {
        if (!(patch instanceof ObjectNode applied)) {
            throw new ApiError(400, "BadRequest", "the applied configuration is not an object");
        }
        String bodyName = applied.path("metadata").path("name").asText(name);
        if (!bodyName.equals(name)) {
            throw new ApiError(
                    400,
                    "BadRequest",
                    "the name of the object (" + bodyName + ") does not match the name on the URL (" + name + ")");
        }
        List<String> warnings = validate(r, version, applied, o);
        KubeStore.Entry old = exists(r, ns, name) ? store.get(r, ns, name) : null;
        ObjectNode next = ServerSideApply.apply(old == null ? null : old.object(), applied, o.manager(), now());
        StoredObjects.metadata(next).put("name", name);
        if (old == null) {
            Result created = create(r, version, ns, next, new Options(o.dryRun(), "Ignore", o.manager()));
            return new Result(201, created.json(), warnings);
        }
        StoredObjects.metadata(next).put("resourceVersion", Long.toString(old.revision()));
        if (o.dryRun()) {
            return new Result(200, next.toString(), warnings);
        }
        return new Result(200, store.update(r, version, ns, name, next, status).json(), warnings);
    }

    Result delete(ApiResource r, String ns, String name, JsonNode options, Options o) {
        JsonNode pre = options == null ? null : options.path("preconditions");
        String version = pre == null ? null : pre.path("resourceVersion").asText(null);
        String uid = pre == null ? null : pre.path("uid").asText(null);
        boolean dryRun = o.dryRun()
                || options != null && options.path("dryRun").toString().contains("\"All\"");
        if (dryRun) {
            return new Result(200, store.get(r, ns, name).json(), List.of());
        }
        return new Result(200, store.delete(r, ns, name, version, uid).json(), List.of());
    }

    private List<String> validate(ApiResource r, String version, JsonNode object, Options o) {
        JsonNode crd = FieldValidation.crdVersion(store, r, version);
        JsonNode schema = crd == null ? null : crd.path("schema").path("openAPIV3Schema");
        return FieldValidation.check(
                o.validation(), r, version, schema != null && schema.isObject() ? schema : null, object);
    }

    private boolean exists(ApiResource r, String ns, String name) {
        try {
            store.get(r, ns, name);
            return true;
        } catch (ApiError e) {
            return false;
        }
    }

    private String now() {
        return clock.instant().truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
