package io.crater.cli;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The submission that clones a job, made as the console's Clone makes it: a job rendered from a template is
 * submitted as a template job again (that version, its stored values with the changes, its name with " (copy)",
 * its priority and working directory); a job typed in full, a resubmission (which keeps only the rendered spec) or
 * one whose template version can no longer be read is copied field by field. Both are linked by {@code sourceJob}.
 */
final class JobClones {

    private JobClones() {}

    static Map<String, Object> body(
            Verb v, String job, Map<String, Object> detail, Map<String, Object> set, String name) {
        Map<String, Object> spec = Values.map(detail.get("spec"));
        String copyName =
                name != null ? name : Values.str(spec.get("name")) + v.msg().get("clone.copySuffix");
        Map<String, Object> ref = Values.map(spec.get("template"));
        if (ref.get("id") != null && readable(v, ref)) {
            return fromTemplate(job, spec, ref, set, copyName);
        }
        if (ref.get("id") != null) {
            v.err().println(v.msg().get("clone.templateGone", ref.get("id")));
        }
        return fromSpec(job, spec, set, copyName);
    }

    /** Whether the template version the job came from can still be read (404: deleted or no longer shared). */
    private static boolean readable(Verb v, Map<String, Object> ref) {
        Map<String, Object> q = new LinkedHashMap<>();
        q.put("version", ref.get("version"));
        try {
            v.api().get("/api/v1/templates/" + Api.seg(Values.str(ref.get("id"))), q);
            return true;
        } catch (Problems.ApiError e) {
            if (e.status() == 404 || e.status() == 403) {
                return false;
            }
            throw e;
        }
    }

    static Map<String, Object> fromTemplate(
            String job, Map<String, Object> spec, Map<String, Object> ref, Map<String, Object> set, String name) {
        Map<String, Object> params = new LinkedHashMap<>();
        Values.map(ref.get("parameters")).forEach((k, val) -> {
            if (val != null) {
                params.put(k, Values.str(val));
            }
        });
        params.putAll(set);
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("id", ref.get("id"));
        if (ref.get("version") != null) {
            t.put("version", ref.get("version"));
        }
        t.put("parameters", params);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        body.put("priority", spec.get("priority") == null ? "normal" : spec.get("priority"));
        body.put("template", t);
        Object dir = spec.get("workingDir");
        if (dir != null && !dir.toString().isBlank()) {
            body.put("workingDir", dir);
        }
        body.put("sourceJob", job);
        return body;
    }

    /** The spec with its template reference dropped, {@code sourceJob} set and each {@code a.b=value} applied. */
    static Map<String, Object> fromSpec(String job, Map<String, Object> spec, Map<String, Object> set, String name) {
        Map<String, Object> body = deepCopy(spec);
        body.remove("template");
        body.put("name", name);
        body.put("sourceJob", job);
        set.forEach((path, value) -> put(body, path, Values.str(value)));
        return body;
    }

    /** Sets {@code a.b.c} (creating maps on the way); an empty value removes the field. */
    static void put(Map<String, Object> root, String path, String value) {
        String[] parts = path.split("\\.");
        Map<String, Object> cur = root;
        for (int i = 0; i < parts.length - 1; i++) {
            Object next = cur.get(parts[i]);
            if (!(next instanceof Map<?, ?>)) {
                next = new LinkedHashMap<String, Object>();
                cur.put(parts[i], next);
            }
            cur = Values.map(next);
        }
        String last = parts[parts.length - 1];
        if (value.isEmpty()) {
            cur.remove(last);
        } else {
            cur.put(last, JobActions.typed(path, value, cur.get(last)));
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> deepCopy(Map<String, Object> m) {
        Map<String, Object> out = new LinkedHashMap<>();
        m.forEach((k, val) -> {
            if (val instanceof Map<?, ?> inner) {
                out.put(k, deepCopy((Map<String, Object>) inner));
            } else if (val instanceof java.util.List<?> l) {
                out.put(k, new java.util.ArrayList<>(l));
            } else if (val != null) {
                out.put(k, val);
            }
        });
        return out;
    }
}
