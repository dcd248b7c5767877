package io.crater.cluster;

import io.crater.platform.Problem;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The rules of a catalogue entry's fields, as Kubernetes names them: the key (a DNS label, since quotas, prices and
 * Volcano Queue capabilities use it), the extended resource name ({@code domain/name}, not one of Kubernetes' own),
 * the node label (a qualified name and a label value, both or neither), names and the memory per card in MiB.
 */
final class ModelFields {

    static final int MAX_TEXT = 100;
    /** 16 TiB in MiB: more than any card has. */
    static final long MAX_MEMORY_MIB = 16L * 1024 * 1024;

    private static final Pattern KEY = Pattern.compile("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$");
    private static final String DNS_LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    private static final Pattern SUBDOMAIN = Pattern.compile("^" + DNS_LABEL + "(\\." + DNS_LABEL + ")*$");
    private static final Pattern NAME = Pattern.compile("^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$");
    private static final Set<String> RESERVED_KEYS = Set.of("cpu", "memory", "uncatalogued", "pods", "storage");

    private ModelFields() {}

    /** The field errors of a new model; empty when it may be added (uniqueness is checked against the catalogue). */
    static List<Problem.FieldError> check(CatalogueService.NewModel m) {
        List<Problem.FieldError> errors = new ArrayList<>();
        if (m == null) {
            return List.of(new Problem.FieldError("body", "required"));
        }
        if (m.key() == null || !KEY.matcher(m.key()).matches()) {
            errors.add(new Problem.FieldError(
                    "key", "1 to 63 lowercase letters, digits and '-', starting and ending with a letter or digit"));
        } else if (RESERVED_KEYS.contains(m.key())) {
            errors.add(new Problem.FieldError("key", "'" + m.key() + "' is reserved"));
        }
        String resource = resourceProblem(m.resource());
        if (resource != null) {
            errors.add(new Problem.FieldError("resource", resource));
        }
        labelProblems(m.labelKey(), m.labelValue(), errors);
        text("displayName", m.displayName(), errors);
        text("vendor", m.vendor(), errors);
        memory(m.memoryMiB(), errors);
        if (m.memoryResource() != null) {
            String problem = resourceProblem(m.memoryResource());
            if (problem != null) {
                errors.add(new Problem.FieldError("memoryResource", problem));
            } else if (m.memoryResource().equals(m.resource())) {
                errors.add(new Problem.FieldError("memoryResource", "must differ from resource"));
            } else if (m.memoryMiB() == null) {
                errors.add(new Problem.FieldError(
                        "memoryMiB", "required with memoryResource: what each pod asks of it per device, in MiB"));
            }
        }
        return errors;
    }

    /** A display name or vendor: 1 to 100 characters after trimming; null is "required". */
    static void text(String field, String value, List<Problem.FieldError> errors) {
        if (value == null || value.isBlank() || value.trim().length() > MAX_TEXT) {
            errors.add(new Problem.FieldError(field, "1 to " + MAX_TEXT + " characters"));
        }
    }

    /** Memory of one card in MiB: null (not known) or 1 MiB to 16 TiB. */
    static void memory(Long mib, List<Problem.FieldError> errors) {
        if (mib != null && (mib < 1 || mib > MAX_MEMORY_MIB)) {
            errors.add(new Problem.FieldError("memoryMiB", "memory of one card in MiB: 1 to " + MAX_MEMORY_MIB));
        }
    }

    /** Why {@code resource} is not an extended resource name a device plugin could publish, or null. */
    static String resourceProblem(String resource) {
        String shape = "an extended resource name such as nvidia.com/gpu, nvidia.com/mig-1g.10gb or hygon.com/dcu";
        if (resource == null || resource.length() > 253) {
            return shape;
        }
        int slash = resource.indexOf('/');
        if (slash <= 0 || slash != resource.lastIndexOf('/')) {
            return shape;
        }
        String domain = resource.substring(0, slash);
        String name = resource.substring(slash + 1);
        if (!SUBDOMAIN.matcher(domain).matches() || !NAME.matcher(name).matches()) {
            return shape;
        }
        if (domain.equals("kubernetes.io") || domain.endsWith(".kubernetes.io") || domain.endsWith("k8s.io")) {
            return "Kubernetes' own resources (" + domain + ") are not accelerators";
        }
        return null;
    }

    private static void labelProblems(String key, String value, List<Problem.FieldError> errors) {
        if (key == null && value == null) {
            return;
        }
        if (key == null || value == null) {
            errors.add(new Problem.FieldError(
                    key == null ? "labelKey" : "labelValue",
                    "labelKey and labelValue go together (leave both out when the resource alone names the model)"));
            return;
        }
        int slash = key.indexOf('/');
        String prefix = slash < 0 ? null : key.substring(0, slash);
        String name = slash < 0 ? key : key.substring(slash + 1);
        if ((prefix != null
                        && (prefix.length() > 253 || !SUBDOMAIN.matcher(prefix).matches()))
                || !NAME.matcher(name).matches()) {
            errors.add(new Problem.FieldError(
                    "labelKey",
                    "a label key such as nvidia.com/gpu.product ([prefix/]name, name at most 63 characters)"));
        }
        if (!NAME.matcher(value).matches()) {
            errors.add(new Problem.FieldError(
                    "labelValue",
                    "a label value: 1 to 63 letters, digits, '-', '_' or '.', starting and ending"
                            + " with a letter or digit"));
        }
    }
}
