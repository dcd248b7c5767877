package io.crater.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.zjsonpatch.JsonPatch;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

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

    /** A failed request, answered as a Kubernetes {@code Status}. */
    static final class ApiError extends RuntimeException {
        final int code;
        final String reason;

        ApiError(int code, String reason, String message) {
            super(message);
            this.code = code;
            this.reason = reason;
        }
    }

    /** Receives a watch's events, one JSON document each; closed when the watch ends. */
    interface Sink {
        void send(String event);

        void close();
    }

    /** A stored version of an object: the tree (never mutated once stored), its JSON and labels. */
    record Entry(String key, ObjectNode object, long revision, String json, Map<String, String> labels) {}

    private record Change(ApiResource resource, String type, Entry entry, Entry previous) {}

    private static final class Table {
        final NavigableMap<String, Entry> objects = new TreeMap<>();
        final Map<String, Map<String, TreeSet<String>>> labels = new HashMap<>();
    }

    /** An open watch. */
    final class Watch {
        final ApiResource resource;
        final String version;
        final String namespace;
        final Selectors.Selector labels;
        final Selectors.Selector fields;
        final boolean bookmarks;
        final Sink sink;

        Watch(
                ApiResource resource,
                String version,
                String namespace,
                Selectors.Selector labels,
                Selectors.Selector fields,
                boolean bookmarks,
                Sink sink) {
            this.resource = resource;
            this.version = version;
            this.namespace = namespace;
            this.labels = labels;
            this.fields = fields;
            this.bookmarks = bookmarks;
            this.sink = sink;
        }

        boolean sees(Entry e) {
            return e != null
                    && (namespace == null || namespace.equals(namespaceOf(e)))
                    && labels.matches(e.labels())
                    && fields.matches(fieldValues(resource, e.object()));
        }

        void deliver(Change c) {
            boolean now = sees(c.entry());
            boolean before = c.type().equals("ADDED") ? false : sees(c.previous());
            String type;
            if (c.type().equals("DELETED")) {
                type = before || now ? "DELETED" : null;
            } else if (now && before) {
                type = "MODIFIED";
            } else if (now) {
                type = "ADDED";
            } else if (before) {
                type = "DELETED";
            } else {
                type = null;
            }
            if (type != null) {
                sink.send(event(type, c.entry().json()));
            }
        }

        /** Stops the watch; the sink is not called again. */
        void cancel() {
            synchronized (KubeStore.this) {
                watches.remove(this);
            }
        }
    }

    static final int DEFAULT_LOG = 8192;

    private final ObjectMapper json = new ObjectMapper();
    private final Clock clock;
    private final int logCapacity;
    private final Map<String, ApiResource> resources = new LinkedHashMap<>();
    private final Map<String, Table> tables = new HashMap<>();
    private final ArrayDeque<Change> log = new ArrayDeque<>();
    private final List<Watch> watches = new ArrayList<>();
    private long revision = 1;
    private long compacted = 1;

    KubeStore(Clock clock, int logCapacity) {
        this.clock = clock;
        this.logCapacity = logCapacity;
        ApiResource.builtIns().forEach(this::register);
    }

    // ---------------------------------------------------------------- resources

    private void register(ApiResource r) {
        resources.put(r.key(), r);
        tables.computeIfAbsent(r.key(), k -> new Table());
    }

    /** The resource served at a group, version and plural, or null. */
    synchronized ApiResource resource(String group, String version, String plural) {
        ApiResource r = resources.get(group + "/" + plural);
        return r != null && r.serves(version) ? r : null;
    }

    synchronized List<ApiResource> resources() {
        return List.copyOf(resources.values());
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
        for (Entry e : candidates(r, namespace, labels, after)) {
            if (!labels.matches(e.labels()) || !fields.matches(fieldValues(r, e.object()))) {
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

    /** The entries worth testing, in key order: an equality term's label index when there is one. */
    private Iterable<Entry> candidates(ApiResource r, String namespace, Selectors.Selector labels, String after) {
        Table t = tables.get(r.key());
        TreeSet<String> best = null;
        for (Selectors.Term term : labels.terms()) {
            if (term.op() == Selectors.Op.EQUALS) {
                Map<String, TreeSet<String>> byValue = t.labels.get(term.key());
                TreeSet<String> keys = byValue == null
                        ? null
                        : byValue.get(term.values().iterator().next());
                if (keys == null) {
                    return List.of();
                }
                if (best == null || keys.size() < best.size()) {
                    best = keys;
                }
            }
        }
        String from = namespace == null ? "" : namespace + "/";
        String to = namespace == null ? "\uffff" : namespace + "/\uffff";
        if (after != null && after.compareTo(from) >= 0) {
            from = after + "\u0000";
        }
        if (from.compareTo(to) >= 0) {
            return List.of();
        }
        if (best != null) {
            Collection<String> keys = best.subSet(from, true, to, false);
            List<Entry> out = new ArrayList<>(keys.size());
            for (String k : keys) {
                out.add(t.objects.get(k));
            }
            return out;
        }
        return t.objects.subMap(from, true, to, false).values();
    }

    // ---------------------------------------------------------------- writes

    synchronized Entry create(ApiResource r, String version, String namespace, ObjectNode body) {
        checkKind(r, version, body);
        ObjectNode meta = metadata(body);
        String name = text(meta, "name");
        if (name == null || name.isEmpty()) {
            String prefix = text(meta, "generateName");
            if (prefix == null || prefix.isEmpty()) {
                throw new ApiError(422, "Invalid", r.kind() + " is invalid: metadata.name: Required value");
            }
            do {
                name = prefix + randomSuffix();
            } while (tables.get(r.key()).objects.containsKey(key(r, namespace, name)));
            meta.put("name", name);
        }
        checkName(r, name);
        if (r.namespaced()) {
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
        } else {
            meta.remove("namespace");
        }
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
        switch (r.key()) {
            case "/pods" ->
                body.set("status", JsonNodeFactory.instance.objectNode().put("phase", "Pending"));
            case "/namespaces" ->
                body.set("status", JsonNodeFactory.instance.objectNode().put("phase", "Active"));
            case "apiextensions.k8s.io/customresourcedefinitions" -> body.set("status", established(body));
            default -> {
                if (r.statusSubresource() && !r.group().isEmpty()) {
                    body.remove("status");
                }
            }
        }
        Entry e = store(r, key, body, "ADDED", null);
        if (r.key().equals("apiextensions.k8s.io/customresourcedefinitions")) {
            registerCrd(body);
        }
        return e;
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
        return write(r, old, body, statusOnly);
    }

    /** Applies a JSON patch or JSON merge patch to an object, or to its status alone. */
    synchronized Entry patch(
            ApiResource r, String namespace, String name, String contentType, JsonNode patch, boolean statusOnly) {
        Entry old = get(r, namespace, name);
        JsonNode patched;
        try {
            patched = switch (contentType) {
                case "application/json-patch+json" -> JsonPatch.apply(patch, old.object());
                case "application/merge-patch+json" -> mergePatch(old.object(), patch);
                default ->
                    throw new ApiError(
                            415,
                            "UnsupportedMediaType",
                            "the body of the request was in an unknown format - accepted media types include:"
                                    + " application/json-patch+json, application/merge-patch+json");
            };
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
        checkKind(r, apiVersionOf(old), body);
        return write(r, old, body, statusOnly);
    }

    private Entry write(ApiResource r, Entry old, ObjectNode body, boolean statusOnly) {
        ObjectNode next;
        if (statusOnly) {
            next = old.object().deepCopy();
            if (body.has("status")) {
                next.set("status", body.get("status"));
            } else {
                next.remove("status");
            }
        } else {
            next = body;
            ObjectNode meta = metadata(next);
            ObjectNode was = (ObjectNode) old.object().get("metadata");
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
                if (old.object().has("status")) {
                    next.set("status", old.object().get("status"));
                } else {
                    next.remove("status");
                }
            }
            if (!specOf(next).equals(specOf(old.object()))) {
                meta.put("generation", was.path("generation").asLong(0) + 1);
            }
        }
        metadata(next).put("resourceVersion", Long.toString(old.revision()));
        if (next.equals(old.object())) {
            return old;
        }
        JsonNode finalizers = next.path("metadata").path("finalizers");
        if (next.path("metadata").has("deletionTimestamp") && (finalizers.isMissingNode() || finalizers.isEmpty())) {
            return remove(r, old.key(), next);
        }
        Entry e = store(r, old.key(), next, "MODIFIED", old);
        if (r.key().equals("apiextensions.k8s.io/customresourcedefinitions")) {
            registerCrd(next);
        }
        return e;
    }

    /** {@code pods/binding}: assigns an unassigned pod to a node, as the scheduler does; 409 when assigned. */
    synchronized Entry bind(String namespace, String pod, String node) {
        ApiResource pods = resources.get("/pods");
        Entry old = get(pods, namespace, pod);
        String assigned = old.object().path("spec").path("nodeName").asText("");
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
        ObjectNode next = old.object().deepCopy();
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
        if (precondUid != null && !precondUid.equals(text(metadata(old.object()), "uid"))) {
            throw new ApiError(
                    409,
                    "Conflict",
                    "Precondition failed: UID in precondition: " + precondUid + ", UID in object meta: "
                            + text(metadata(old.object()), "uid"));
        }
        JsonNode finalizers = old.object().path("metadata").path("finalizers");
        if (finalizers.isArray() && !finalizers.isEmpty()) {
            if (old.object().path("metadata").has("deletionTimestamp")) {
                return old;
            }
            ObjectNode next = old.object().deepCopy();
            metadata(next).put("deletionTimestamp", now()).put("deletionGracePeriodSeconds", 0);
            return store(r, old.key(), next, "MODIFIED", old);
        }
        Entry gone = remove(r, old.key(), old.object().deepCopy());
        if (r.key().equals("/namespaces")) {
            for (ApiResource each : List.copyOf(resources.values())) {
                if (each.namespaced()) {
                    for (Entry e : List.copyOf(tables.get(each.key())
                            .objects
                            .subMap(name + "/", true, name + "/\uffff", false)
                            .values())) {
                        remove(each, e.key(), e.object().deepCopy());
                    }
                }
            }
        }
        if (r.key().equals("apiextensions.k8s.io/customresourcedefinitions")) {
            unregisterCrd(old.object());
        }
        return gone;
    }

    /** Deletes every object a list with these selectors would answer; answers their last states. */
    synchronized List<Entry> deleteCollection(
            ApiResource r, String namespace, Selectors.Selector labels, Selectors.Selector fields) {
        List<Entry> matching = new ArrayList<>();
        for (Entry e : candidates(r, namespace, labels, null)) {
            if (labels.matches(e.labels()) && fields.matches(fieldValues(r, e.object()))) {
                matching.add(e);
            }
        }
        List<Entry> out = new ArrayList<>();
        for (Entry e : matching) {
            JsonNode meta = e.object().get("metadata");
            out.add(delete(r, namespaceOf(e), meta.path("name").asText(), null, null));
        }
        return out;
    }

    private Entry store(ApiResource r, String key, ObjectNode object, String type, Entry previous) {
        long rv = ++revision;
        metadata(object).put("resourceVersion", Long.toString(rv));
        Entry e = entry(key, object, rv);
        Table t = tables.get(r.key());
        if (previous != null) {
            unindex(t, previous);
        }
        t.objects.put(key, e);
        index(t, e);
        record(new Change(r, type, e, previous));
        return e;
    }

    private Entry remove(ApiResource r, String key, ObjectNode last) {
        Table t = tables.get(r.key());
        Entry previous = t.objects.remove(key);
        if (previous != null) {
            unindex(t, previous);
        }
        long rv = ++revision;
        metadata(last).put("resourceVersion", Long.toString(rv));
        Entry e = entry(key, last, rv);
        record(new Change(r, "DELETED", e, previous));
        return e;
    }

    private void record(Change c) {
        log.addLast(c);
        if (log.size() > logCapacity) {
            compacted = log.removeFirst().entry().revision();
        }
        for (Watch w : List.copyOf(watches)) {
            if (w.resource.key().equals(c.resource().key())) {
                w.deliver(c);
            }
        }
    }

    // ---------------------------------------------------------------- watches

    /**
     * Opens a watch. Without a resource version (or {@code 0}) it starts with an ADDED event for every object
     * matching; from a version it replays the changes after it, or answers a 410 {@code Expired} error event and
     * closes when the log no longer holds them.
     */
    synchronized Watch watch(
            ApiResource r,
            String version,
            String namespace,
            Selectors.Selector labels,
            Selectors.Selector fields,
            String fromRevision,
            boolean bookmarks,
            Sink sink) {
        Watch w = new Watch(r, version, namespace, labels, fields, bookmarks, sink);
        if (fromRevision == null || fromRevision.isEmpty() || fromRevision.equals("0")) {
            for (Entry e : candidates(r, namespace, labels, null)) {
                if (w.sees(e)) {
                    sink.send(event("ADDED", e.json()));
                }
            }
        } else {
            long from;
            try {
                from = Long.parseLong(fromRevision);
            } catch (NumberFormatException e) {
                throw new ApiError(400, "BadRequest", "invalid resource version \"" + fromRevision + "\"");
            }
            if (from < compacted) {
                sink.send(event(
                        "ERROR", status(410, "Expired", "too old resource version: " + from + " (" + compacted + ")")));
                sink.close();
                return w;
            }
            Iterator<Change> it = log.iterator();
            while (it.hasNext()) {
                Change c = it.next();
                if (c.entry().revision() > from && c.resource().key().equals(r.key())) {
                    w.deliver(c);
                }
            }
        }
        watches.add(w);
        return w;
    }

    /** Sends a bookmark with the current resource version to every watch that asked for them. */
    synchronized void bookmarks() {
        for (Watch w : watches) {
            if (w.bookmarks) {
                w.sink.send("{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"" + w.resource.kind()
                        + "\",\"apiVersion\":\"" + w.resource.apiVersion(w.version)
                        + "\",\"metadata\":{\"resourceVersion\":\"" + revision + "\"}}}");
            }
        }
    }

    synchronized int watchCount() {
        return watches.size();
    }

    // ---------------------------------------------------------------- CRDs

    private void registerCrd(JsonNode crd) {
        JsonNode spec = crd.path("spec");
        List<String> versions = new ArrayList<>();
        boolean status = false;
        for (JsonNode v : spec.path("versions")) {
            if (v.path("served").asBoolean(true)) {
                versions.add(v.path("name").asText());
                status |= v.path("subresources").has("status");
            }
        }
        ApiResource r = new ApiResource(
                spec.path("group").asText(),
                List.copyOf(versions),
                spec.path("names").path("plural").asText(),
                spec.path("names").path("kind").asText(),
                "Namespaced".equals(spec.path("scope").asText()),
                status,
                false,
                Set.of());
        register(r);
    }

    private void unregisterCrd(JsonNode crd) {
        JsonNode spec = crd.path("spec");
        String key = spec.path("group").asText() + "/"
                + spec.path("names").path("plural").asText();
        resources.remove(key);
        tables.remove(key);
    }

    private static ObjectNode established(ObjectNode crd) {
        ObjectNode status = JsonNodeFactory.instance.objectNode();
        ArrayNode conditions = status.putArray("conditions");
        for (String type : List.of("NamesAccepted", "Established")) {
            conditions
                    .addObject()
                    .put("type", type)
                    .put("status", "True")
                    .put("reason", type.equals("Established") ? "InitialNamesAccepted" : "NoConflicts");
        }
        status.set("acceptedNames", crd.path("spec").path("names"));
        ArrayNode stored = status.putArray("storedVersions");
        for (JsonNode v : crd.path("spec").path("versions")) {
            if (v.path("storage").asBoolean(false)) {
                stored.add(v.path("name").asText());
            }
        }
        return status;
    }

    // ---------------------------------------------------------------- helpers

    private Entry entry(String key, ObjectNode object, long rv) {
        Map<String, String> labels = new HashMap<>();
        object.path("metadata")
                .path("labels")
                .fields()
                .forEachRemaining(f -> labels.put(f.getKey(), f.getValue().asText()));
        try {
            return new Entry(key, object, rv, json.writeValueAsString(object), Map.copyOf(labels));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void index(Table t, Entry e) {
        e.labels()
                .forEach((k, v) -> t.labels
                        .computeIfAbsent(k, x -> new HashMap<>())
                        .computeIfAbsent(v, x -> new TreeSet<>())
                        .add(e.key()));
    }

    private static void unindex(Table t, Entry e) {
        e.labels().forEach((k, v) -> {
            Map<String, TreeSet<String>> byValue = t.labels.get(k);
            TreeSet<String> keys = byValue == null ? null : byValue.get(v);
            if (keys != null) {
                keys.remove(e.key());
                if (keys.isEmpty()) {
                    byValue.remove(v);
                }
            }
        });
    }

    static String key(ApiResource r, String namespace, String name) {
        return r.namespaced() ? namespace + "/" + name : name;
    }

    private static String namespaceOf(Entry e) {
        return e.object().path("metadata").path("namespace").asText(null);
    }

    static Map<String, String> fieldValues(ApiResource r, JsonNode object) {
        Map<String, String> out = new HashMap<>();
        out.put("metadata.name", object.path("metadata").path("name").asText(""));
        out.put("metadata.namespace", object.path("metadata").path("namespace").asText(""));
        for (String f : r.fields()) {
            String v = Selectors.at(object, f);
            out.put(f, v == null ? (f.equals("spec.unschedulable") ? "false" : "") : v);
        }
        return out;
    }

    private static JsonNode specOf(ObjectNode object) {
        ObjectNode copy = object.deepCopy();
        copy.remove("metadata");
        copy.remove("status");
        return copy;
    }

    /** RFC 7386: objects merge member by member, {@code null} deletes, anything else (arrays too) replaces. */
    static JsonNode mergePatch(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch.deepCopy();
        }
        ObjectNode out = target != null && target.isObject()
                ? ((ObjectNode) target).deepCopy()
                : JsonNodeFactory.instance.objectNode();
        patch.fields().forEachRemaining(f -> {
            if (f.getValue().isNull()) {
                out.remove(f.getKey());
            } else {
                out.set(f.getKey(), mergePatch(out.get(f.getKey()), f.getValue()));
            }
        });
        return out;
    }

    private void checkKind(ApiResource r, String version, ObjectNode body) {
        String kind = text(body, "kind");
        if (kind != null && !kind.isEmpty() && !kind.equals(r.kind())) {
            throw new ApiError(400, "BadRequest", "the kind of the object (" + kind + ") does not match " + r.kind());
        }
        String apiVersion = text(body, "apiVersion");
        if (apiVersion != null && !apiVersion.isEmpty() && !r.serves(versionOf(apiVersion, r))) {
            throw new ApiError(400, "BadRequest", "apiVersion " + apiVersion + " is not served for " + plural(r));
        }
        if (apiVersion == null || apiVersion.isEmpty()) {
            body.put("apiVersion", r.apiVersion(version));
        }
    }

    private static String versionOf(String apiVersion, ApiResource r) {
        int slash = apiVersion.indexOf('/');
        String group = slash < 0 ? "" : apiVersion.substring(0, slash);
        return group.equals(r.group()) ? apiVersion.substring(slash + 1) : "";
    }

    private static String apiVersionOf(Entry e) {
        String v = e.object().path("apiVersion").asText();
        int slash = v.indexOf('/');
        return slash < 0 ? v : v.substring(slash + 1);
    }

    private static void checkName(ApiResource r, String name) {
        boolean ok = r.key().equals("/events")
                ? name.matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?")
                : name.matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?") && name.length() <= 253;
        if (!ok) {
            throw new ApiError(
                    422,
                    "Invalid",
                    r.kind() + " \"" + name + "\" is invalid: metadata.name: Invalid value: \"" + name
                            + "\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters,"
                            + " '-' or '.', and must start and end with an alphanumeric character");
        }
    }

    private static ObjectNode metadata(ObjectNode body) {
        return child(body, "metadata");
    }

    private static ObjectNode child(ObjectNode parent, String field) {
        return parent.get(field) instanceof ObjectNode o ? o : parent.putObject(field);
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private String now() {
        return clock.instant().truncatedTo(ChronoUnit.SECONDS).toString();
    }

    private static String randomSuffix() {
        String alphabet = "bcdfghjklmnpqrstvwxz2456789";
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            s.append(alphabet.charAt(ThreadLocalRandom.current().nextInt(alphabet.length())));
        }
        return s.toString();
    }

    private static String plural(ApiResource r) {
        return r.group().isEmpty() ? r.plural() : r.plural() + "." + r.group();
    }

    private static ApiError notFound(ApiResource r, String name) {
        return new ApiError(404, "NotFound", plural(r) + " \"" + name + "\" not found");
    }

    private static ApiError conflict(ApiResource r, String name) {
        return new ApiError(
                409,
                "Conflict",
                "Operation cannot be fulfilled on " + plural(r) + " \"" + name
                        + "\": the object has been modified; please apply your changes to the latest version and try again");
    }

    static String event(String type, String objectJson) {
        return "{\"type\":\"" + type + "\",\"object\":" + objectJson + "}";
    }

    /** A Kubernetes {@code Status} document. */
    static String status(int code, String reason, String message) {
        ObjectNode s = JsonNodeFactory.instance.objectNode();
        s.put("kind", "Status").put("apiVersion", "v1");
        s.putObject("metadata");
        s.put("status", code < 400 ? "Success" : "Failure")
                .put("message", message)
                .put("reason", reason)
                .put("code", code);
        return s.toString();
    }
}
