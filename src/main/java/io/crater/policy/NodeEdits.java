package io.crater.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks of a platform admin's edits of a node's labels and taints, by Kubernetes' own rules: a key is an optional
 * DNS subdomain prefix (at most 253 characters) and a slash before a name of at most 63 characters of letters, digits,
 * {@code -_.} that starts and ends with a letter or digit; a label or taint value is empty or such a name; a taint's
 * effect is {@code NoSchedule}, {@code PreferNoSchedule} or {@code NoExecute}. The cordon's taint and annotation are
 * Crater's and the node controller's to set, never edited here.
 */
public final class NodeEdits {

    private NodeEdits() {}

    /** The taint Kubernetes' node controller puts on a cordoned node; cordon and uncordon set it, not an edit. */
    public static final String CORDON_TAINT = "node.kubernetes.io/unschedulable";

    /** Effects a taint may have. */
    public static final Set<String> EFFECTS = Set.of("NoSchedule", "PreferNoSchedule", "NoExecute");

    private static final Pattern NAME = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

    /** A refused part of an edit: the field (as the request names it) and what is wrong with it. */
    public record Violation(String field, String message) {}

    /** A taint as the request gives it; {@code value} may be null. */
    public record TaintSpec(String key, String value, String effect) {}

    /** What is wrong with a key ({@code null} when it is valid). */
    public static String keyProblem(String key) {
        if (key == null || key.isEmpty()) {
            return "must not be empty";
        }
        int slash = key.indexOf('/');
        String name = slash < 0 ? key : key.substring(slash + 1);
        if (slash >= 0) {
            String prefix = key.substring(0, slash);
            if (prefix.isEmpty() || prefix.length() > 253 || !subdomain(prefix)) {
                return "prefix '" + prefix + "' must be a DNS subdomain of at most 253 characters";
            }
        }
        if (name.isEmpty() || name.length() > 63 || !NAME.matcher(name).matches()) {
            return "name part must be at most 63 characters of letters, digits, '-', '_' or '.', starting and"
                    + " ending with a letter or digit";
        }
        return null;
    }

    /** What is wrong with a label or taint value ({@code null} when it is valid; empty is valid). */
    public static String valueProblem(String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        if (value.length() > 63 || !NAME.matcher(value).matches()) {
            return "must be at most 63 characters of letters, digits, '-', '_' or '.', starting and ending with a"
                    + " letter or digit";
        }
        return null;
    }

    private static boolean subdomain(String s) {
        for (String part : s.split("\\.", -1)) {
            if (part.length() > 63 || !DNS_LABEL.matcher(part).matches()) {
                return false;
            }
        }
        return true;
    }

    /** Labels to set and to remove: every key and value valid, no key both set and removed. */
    public static List<Violation> labels(Map<String, String> set, List<String> remove) {
        List<Violation> out = new ArrayList<>();
        set.forEach((k, v) -> {
            String kp = keyProblem(k);
            if (kp != null) {
                out.add(new Violation("set." + k, "label key " + kp));
            } else if (v == null) {
                out.add(new Violation("set." + k, "label value must be a string (use remove to take a label off)"));
            } else {
                String vp = valueProblem(v);
                if (vp != null) {
                    out.add(new Violation("set." + k, "label value " + vp));
                }
            }
        });
        for (int i = 0; i < remove.size(); i++) {
            String k = remove.get(i);
            String kp = keyProblem(k);
            if (kp != null) {
                out.add(new Violation("remove[" + i + "]", "label key " + kp));
            } else if (set.containsKey(k)) {
                out.add(new Violation("remove[" + i + "]", "label '" + k + "' is both set and removed"));
            }
        }
        return out;
    }

    /** Taints to add and to remove (matched by key and effect): keys, values and effects valid, not the cordon's. */
    public static List<Violation> taints(List<TaintSpec> add, List<TaintSpec> remove) {
        List<Violation> out = new ArrayList<>();
        Set<String> seen = new java.util.HashSet<>();
        for (int i = 0; i < add.size(); i++) {
            TaintSpec t = add.get(i);
            String field = "add[" + i + "]";
            taint(t, field, true, out);
            if (t != null && !seen.add(t.key() + ":" + t.effect())) {
                out.add(new Violation(field, "taint " + t.key() + ":" + t.effect() + " is given twice"));
            }
        }
        for (int i = 0; i < remove.size(); i++) {
            taint(remove.get(i), "remove[" + i + "]", false, out);
        }
        return out;
    }

    private static void taint(TaintSpec t, String field, boolean adding, List<Violation> out) {
        if (t == null) {
            out.add(new Violation(field, "must be a taint with key and effect"));
            return;
        }
        String kp = keyProblem(t.key());
        if (kp != null) {
            out.add(new Violation(field + ".key", "taint key " + kp));
        } else if (t.key().equals(CORDON_TAINT)) {
            out.add(new Violation(field + ".key", "the cordon's taint is set by cordon and uncordon"));
        } else if (t.key().equals(Taints.EXCLUSIVE)) {
            out.add(new Violation(field + ".key", "an account's exclusive taint is set by PUT and DELETE …/exclusive"));
        }
        if (adding) {
            String vp = valueProblem(t.value());
            if (vp != null) {
                out.add(new Violation(field + ".value", "taint value " + vp));
            }
        }
        if (t.effect() == null || !EFFECTS.contains(t.effect())) {
            out.add(new Violation(
                    field + ".effect", "taint effect must be one of NoExecute, NoSchedule, PreferNoSchedule"));
        }
    }

    /** A cordon's reason: required, trimmed, at most 256 characters; {@code null} when it is fine. */
    public static String reasonProblem(String reason) {
        if (reason == null || reason.isBlank()) {
            return "a reason is required";
        }
        if (reason.strip().length() > 256) {
            return "the reason must be at most 256 characters";
        }
        return null;
    }
}
