package io.crater.sim.apiserver;

import static io.crater.sim.apiserver.StoredObjects.apiVersionOf;
import static io.crater.sim.apiserver.StoredObjects.checkKind;
import static io.crater.sim.apiserver.StoredObjects.checkName;
import static io.crater.sim.apiserver.StoredObjects.child;
import static io.crater.sim.apiserver.StoredObjects.conflict;
import static io.crater.sim.apiserver.StoredObjects.entry;
import static io.crater.sim.apiserver.StoredObjects.fieldsMatch;
import static io.crater.sim.apiserver.StoredObjects.initialStatus;
import static io.crater.sim.apiserver.StoredObjects.metadata;
import static io.crater.sim.apiserver.StoredObjects.notFound;
import static io.crater.sim.apiserver.StoredObjects.plural;
import static io.crater.sim.apiserver.StoredObjects.randomSuffix;
import static io.crater.sim.apiserver.StoredObjects.specOf;
import static io.crater.sim.apiserver.StoredObjects.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The simulated cluster's object store, with the semantics of a Kubernetes API server for what Crater and the
 * simulator use: one global resource version; create (with {@code generateName}), get, list (label and field
 * selectors, {@code limit}/{@code continue}), update with optimistic concurrency, the status subresource, JSON
 * and JSON merge patches, finalizers and deletion timestamps, no-op writes that change nothing, generation on
 * spec changes, CRDs that register their resources, and watches from a resource version replayed from a bounded
 * change log (older than the log: {@code 410 Expired}), with selector transitions as ADDED/DELETED.
 *
 * <p>Objects are kept per resource in a map sorted by namespace and name, with an index per label, so a request
 * costs the objects it touches, not every object stored. Every method runs under one lock; watch events are
 * handed to their sinks in resource-version order inside it.
 */
final class KubeStore {

    /**
     * A stored version of an object: its JSON, labels and namespace. The store keeps the text alone (a parsed tree
     * beside it held about twice the memory); {@link #object()} parses a fresh tree, which callers may change.
     */
    record Entry(String key, long revision, String json, Map<String, String> labels, String namespace) {

        ObjectNode object() {
            return StoredObjects.parse(json);
        }
    }

    static final int DEFAULT_LOG = 8192;
    private static final String CRDS = "apiextensions.k8s.io/customresourcedefinitions";

    private final Clock clock;
    private final CrdRegistry registry = new CrdRegistry();
    private final Map<String, ObjectTable> tables = new HashMap<>();
    private final Watches watches;
    private long revision = 1;

    KubeStore(Clock clock, int logCapacity) {
        this.clock = clock;
        this.watches = new Watches(this, logCapacity);
        ApiResource.builtIns().forEach(this::register);
    }

    // ---------------------------------------------------------------- resources

    private void register(ApiResource r) {
        registry.register(r);
        tables.computeIfAbsent(r.key(), k -> new ObjectTable());
    }

    /** The resource served at a group, version and plural, or null. */
    synchronized ApiResource resource(String group, String version, String plural) {
        return registry.resource(group, version, plural);
    }

    synchronized List<ApiResource> resources() {
        return registry.resources();
    }

    synchronized long revision() {
        return revision;
    }

    // ---------------------------------------------------------------- reads

    synchronized Entry get(ApiResource r, String namespace, String name) {
        Entry e = tables.get(r.key()).objects.get(key(r, namespace, name));
        if (e == null) {
            throw notFound(r, name);
        }
        return e;
    }

    /** The objects of a resource in a namespace (all namespaces for null), as stored. */
    synchronized List<ObjectNode> objects(ApiResource r, String namespace) {
        List<ObjectNode> out = new ArrayList<>();
        for (Entry e : tables.get(r.key()).candidates(namespace, Selectors.Selector.EVERYTHING, null)) {
            out.add(e.object());
        }
        return out;
    }

    /** A list document of the objects matching, sorted by namespace and name, in pages when {@code limit > 0}. */
    synchronized String list(
            ApiResource r,
            String version,
            String namespace,
            Selectors.Selector labels,
            Selectors.Selector fields,
            int limit,
            String continueToken) {
        String after = null;
        if (continueToken != null && !continueToken.isBlank()) {
            try {
                after = new String(Base64.getUrlDecoder().decode(continueToken), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw new ApiError(400, "BadRequest", "continue key is not valid: " + e.getMessage());
            }
        }
        StringBuilder items = new StringBuilder();
        String last = null;
        int n = 0;
        boolean more = false;
        for (Entry e : tables.get(r.key()).candidates(namespace, labels, after)) {
            if (!labels.matches(e.labels()) || !fieldsMatch(fields, r, e)) {
                continue;
            }
            if (limit > 0 && n == limit) {
                more = true;
                break;
            }
            if (n > 0) {
                items.append(',');
            }
            items.append(e.json());
            last = e.key();
            n++;
        }
        StringBuilder out = new StringBuilder(items.length() + 200);
        out.append("{\"kind\":\"")
                .append(r.kind())
                .append("List\",\"apiVersion\":\"")
                .append(r.apiVersion(version))
                .append("\",\"metadata\":{\"resourceVersion\":\"")
                .append(revision)
                .append('"');
        if (more) {
            out.append(",\"continue\":\"")
                    .append(Base64.getUrlEncoder().encodeToString(last.getBytes(StandardCharsets.UTF_8)))
                    .append('"');
        }
        return out.append("},\"items\":[").append(items).append("]}").toString();
    }

    // ---------------------------------------------------------------- writes

    synchronized Entry create(ApiResource r, String version, String namespace, ObjectNode body) {
        checkKind(r, version, body);
        ObjectNode meta = metadata(body);
        String name = name(r, namespace, meta);
        checkName(r, name);
        placeIn(r, namespace, meta);
        String key = key(r, namespace, name);
        if (tables.get(r.key()).objects.containsKey(key)) {
            throw new ApiError(409, "AlreadyExists", plural(r) + " \"" + name + "\" already exists");
        }
        meta.put("uid", UUID.randomUUID().toString());
        meta.put("creationTimestamp", now());
        meta.remove("deletionTimestamp");
        meta.remove("deletionGracePeriodSeconds");
        if (body.has("spec")) {
            meta.put("generation", 1);
        }
        body.put("apiVersion", r.apiVersion(version));
        body.put("kind", r.kind());
        initialStatus(r, body);
        Entry e = store(r, key, body, "ADDED", null);
        if (r.key().equals(CRDS)) {
            register(CrdRegistry.resourceOf(body));
        }
        return e;
    }

    /** The new object's name: as given, or {@code generateName} with a free random suffix. */
    private String name(ApiResource r, String namespace, ObjectNode meta) {
        String name = text(meta, "name");
        if (name != null && !name.isEmpty()) {
            return name;
        }
        String prefix = text(meta, "generateName");
        if (prefix == null || prefix.isEmpty()) {
            throw new ApiError(422, "Invalid", r.kind() + " is invalid: metadata.name: Required value");
        }
        do {
            name = prefix + randomSuffix();
        } while (tables.get(r.key()).objects.containsKey(key(r, namespace, name)));
        meta.put("name", name);
        return name;
    }

    /** Sets the new object's namespace to the request's (which must exist), or removes it when cluster-scoped. */
    private void placeIn(ApiResource r, String namespace, ObjectNode meta) {
        if (!r.namespaced()) {
            meta.remove("namespace");
            return;
        }
        String bodyNs = text(meta, "namespace");
        if (bodyNs != null && !bodyNs.isEmpty() && !bodyNs.equals(namespace)) {
            throw new ApiError(
                    400,
                    "BadRequest",
                    "the namespace of the provided object does not match the namespace sent on the request");
        }
        meta.put("namespace", namespace);
        if (!tables.get("/namespaces").objects.containsKey(namespace)) {
            throw new ApiError(404, "NotFound", "namespaces \"" + namespace + "\" not found");
        }
    }

    /** Replaces an object ({@code status} kept when it is a subresource), or its status alone. */
    synchronized Entry update(
            ApiResource r, String version, String namespace, String name, ObjectNode body, boolean statusOnly) {
        Entry old = get(r, namespace, name);
        checkKind(r, version, body);
        ObjectNode meta = metadata(body);
        String bodyName = text(meta, "name");
        if (bodyName != null && !bodyName.isEmpty() && !bodyName.equals(name)) {
            throw new ApiError(
                    400,
                    "BadRequest",
                    "the name of the object (" + bodyName + ") does not match the name on the URL (" + name + ")");
        }
        String rv = text(meta, "resourceVersion");
        if (rv == null || rv.isEmpty()) {
            if (!r.unconditionalUpdate()) {
                throw new ApiError(
                        422,
                        "Invalid",
                        r.kind() + " \"" + name
                                + "\" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update");
            }
        } else if (!rv.equals(Long.toString(old.revision()))) {
            throw conflict(r, name);
        }
        return write(r, old, old.object(), body, statusOnly);
    }

    /** Applies a patch of one of {@link Patches}' types to an object, or to its status alone. */
    synchronized Entry patch(
            ApiResource r, String namespace, String name, String contentType, JsonNode patch, boolean statusOnly) {
        Entry old = get(r, namespace, name);
        ObjectNode was = old.object();
        JsonNode patched;
        try {
            patched = Patches.apply(contentType, patch, was);
        } catch (ApiError e) {
            throw e;
        } catch (RuntimeException e) {
            throw new ApiError(422, "Invalid", "the patch cannot be applied: " + e.getMessage());
        }
        if (!(patched instanceof ObjectNode body)) {
            throw new ApiError(422, "Invalid", "the patch does not leave an object");
        }
        String rv = text(metadata(body), "resourceVersion");
        if (rv != null && !rv.isEmpty() && !rv.equals(Long.toString(old.revision()))) {
            throw conflict(r, name);
        }
        checkKind(r, apiVersionOf(was), body);
        return write(r, old, was, body, statusOnly);
    }

    /** Stores {@code body} over {@code old} (whose tree is {@code stored}, not used after this). */
    private Entry write(ApiResource r, Entry old, ObjectNode stored, ObjectNode body, boolean statusOnly) {
        ObjectNode next;
        if (statusOnly) {
            next = stored.deepCopy();
            if (body.has("status")) {
                next.set("status", body.get("status"));
            } else {
                next.remove("status");
            }
        } else {
            next = body;
            ObjectNode meta = metadata(next);
            ObjectNode was = (ObjectNode) stored.get("metadata");
            for (String kept : List.of(
                    "name",
                    "namespace",
                    "uid",
                    "creationTimestamp",
                    "deletionTimestamp",
                    "deletionGracePeriodSeconds",
                    "generation")) {
                if (was.has(kept)) {
                    meta.set(kept, was.get(kept));
                } else {
                    meta.remove(kept);
                }
            }
            if (r.statusSubresource()) {
                if (stored.has("status")) {
                    next.set("status", stored.get("status"));
                } else {
                    next.remove("status");
                }
            }
            if (!specOf(next).equals(specOf(stored))) {
                meta.put("generation", was.path("generation").asLong(0) + 1);
            }
        }
        metadata(next).put("resourceVersion", Long.toString(old.revision()));
        if (next.equals(stored)) {
            return old;
        }
        JsonNode finalizers = next.path("metadata").path("finalizers");
        if (next.path("metadata").has("deletionTimestamp") && (finalizers.isMissingNode() || finalizers.isEmpty())) {
            return remove(r, old.key(), next);
        }
        Entry e = store(r, old.key(), next, "MODIFIED", old);
        if (r.key().equals(CRDS)) {
            register(CrdRegistry.resourceOf(next));
        }
        return e;
    }

    /** {@code pods/binding}: assigns an unassigned pod to a node, as the scheduler does; 409 when assigned. */
    synchronized Entry bind(String namespace, String pod, String node) {
        ApiResource pods = registry.byKey("/pods");
        Entry old = get(pods, namespace, pod);
        ObjectNode next = old.object();
        String assigned = next.path("spec").path("nodeName").asText("");
        if (!assigned.isEmpty()) {
            throw new ApiError(
                    409,
                    "Conflict",
                    "Operation cannot be fulfilled on pods/binding \"" + pod + "\": pod " + pod
                            + " is already assigned to node \"" + assigned + "\"");
        }
        if (node == null || node.isEmpty()) {
            throw new ApiError(422, "Invalid", "Binding \"" + pod + "\" is invalid: target.name: Required value");
        }
        child(next, "spec").put("nodeName", node);
        ObjectNode status = child(next, "status");
        ArrayNode conditions =
                status.has("conditions") ? (ArrayNode) status.get("conditions") : status.putArray("conditions");
        conditions.addObject().put("type", "PodScheduled").put("status", "True").put("lastTransitionTime", now());
        return store(pods, old.key(), next, "MODIFIED", old);
    }

    /** Deletes an object, or marks it deleted while finalizers remain; answers its last state. */
    synchronized Entry delete(ApiResource r, String namespace, String name, String precondRv, String precondUid) {
        Entry old = get(r, namespace, name);
        if (precondRv != null && !precondRv.equals(Long.toString(old.revision()))) {
            throw conflict(r, name);
        }
        ObjectNode was = old.object();
        if (precondUid != null && !precondUid.equals(text(metadata(was), "uid"))) {
            throw new ApiError(
                    409,
                    "Conflict",
                    "Precondition failed: UID in precondition: " + precondUid + ", UID in object meta: "
                            + text(metadata(was), "uid"));
        }
        JsonNode finalizers = was.path("metadata").path("finalizers");
        if (finalizers.isArray() && !finalizers.isEmpty()) {
            if (was.path("metadata").has("deletionTimestamp")) {
                return old;
            }
            ObjectNode next = was.deepCopy();
            metadata(next).put("deletionTimestamp", now()).put("deletionGracePeriodSeconds", 0);
            return store(r, old.key(), next, "MODIFIED", old);
        }
        Entry gone = remove(r, old.key(), was.deepCopy());
        if (r.key().equals("/namespaces")) {
            for (ApiResource each : registry.resources()) {
                if (each.namespaced()) {
                    for (Entry e : List.copyOf(tables.get(each.key())
                            .objects
                            .subMap(name + "/", true, name + "/\uffff", false)
                            .values())) {
                        remove(each, e.key(), e.object());
                    }
                }
            }
        }
        if (r.key().equals(CRDS)) {
            tables.remove(registry.unregister(was));
        }
        return gone;
    }

    /** Deletes every object a list with these selectors would answer; answers their last states. */
    synchronized List<Entry> deleteCollection(
            ApiResource r, String namespace, Selectors.Selector labels, Selectors.Selector fields) {
        List<Entry> matching = new ArrayList<>();
        for (Entry e : tables.get(r.key()).candidates(namespace, labels, null)) {
            if (labels.matches(e.labels()) && fieldsMatch(fields, r, e)) {
                matching.add(e);
            }
        }
        List<Entry> out = new ArrayList<>();
        for (Entry e : matching) {
            String name = e.key().substring(e.key().lastIndexOf('/') + 1);
            out.add(delete(r, e.namespace(), name, null, null));
        }
        return out;
    }

    private Entry store(ApiResource r, String key, ObjectNode object, String type, Entry previous) {
        long rv = ++revision;
        metadata(object).put("resourceVersion", Long.toString(rv));
        Entry e = entry(key, object, rv);
        tables.get(r.key()).put(e, previous);
        watches.record(new Watches.Change(r, type, e, previous));
        return e;
    }

    private Entry remove(ApiResource r, String key, ObjectNode last) {
        Entry previous = tables.get(r.key()).remove(key);
        long rv = ++revision;
        metadata(last).put("resourceVersion", Long.toString(rv));
        Entry e = entry(key, last, rv);
        watches.record(new Watches.Change(r, "DELETED", e, previous));
        return e;
    }

    // ---------------------------------------------------------------- watches

    /**
     * Opens a watch. Without a resource version (or {@code 0}) it starts with an ADDED event for every object
     * matching; from a version it replays the changes after it, or answers a 410 {@code Expired} error event and
     * closes when the log no longer holds them.
     */
    synchronized Watches.Watch watch(
            ApiResource r,
            String version,
            String namespace,
            Selectors.Selector labels,
            Selectors.Selector fields,
            String fromRevision,
            boolean bookmarks,
            Watches.Sink sink) {
        Watches.Watch w = watches.open(r, version, namespace, labels, fields, bookmarks, sink);
        if (fromRevision == null || fromRevision.isEmpty() || fromRevision.equals("0")) {
            for (Entry e : tables.get(r.key()).candidates(namespace, labels, null)) {
                if (w.sees(e)) {
                    sink.send(Watches.event("ADDED", e.json()));
                }
            }
            watches.add(w);
            return w;
        }
        long from;
        try {
            from = Long.parseLong(fromRevision);
        } catch (NumberFormatException e) {
            throw new ApiError(400, "BadRequest", "invalid resource version \"" + fromRevision + "\"");
        }
        watches.replay(w, from);
        return w;
    }

    /** Sends a bookmark with the current resource version to every watch that asked for them. */
    synchronized void bookmarks() {
        watches.bookmarks(revision);
    }

    /** A CRD as stored, parsed once per version stored (see {@link CrdRegistry#tree}); null when there is none. */
    synchronized JsonNode crd(String name) {
        Entry e = tables.get(CRDS).objects.get(name);
        return e == null ? null : registry.tree(name, e);
    }

    /** How many objects are stored, of every resource. */
    synchronized int count() {
        return tables.values().stream().mapToInt(t -> t.objects.size()).sum();
    }

    synchronized int watchCount() {
        return watches.count();
    }

    static String key(ApiResource r, String namespace, String name) {
        return r.namespaced() ? namespace + "/" + name : name;
    }

    private String now() {
        return clock.instant().truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
