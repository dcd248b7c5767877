package io.crater.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.crater.job.TemplateViews.Parameter;
import io.crater.platform.ApiException;
import io.crater.platform.Json;
import io.crater.platform.Problem;
import io.crater.policy.Quantities;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Templates as pure functions: checking a template's parameters and spec, checking values, and rendering a spec
 * by putting the values in for {@code ${name}}. Only declared names are replaced, so {@code ${HOME}} in a shell
 * command stays as it is.
 */
final class JobTemplates {

    static final Set<String> TYPES = Set.of(
            "string",
            "text",
            "integer",
            "quantity",
            "duration",
            "model",
            "choice",
            "boolean",
            "arguments",
            "dataset",
            "ml-model");
    static final int MAX_PARAMETERS = 50;
    private static final Pattern NAME = Pattern.compile("^[A-Za-z][A-Za-z0-9_]{0,39}$");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Za-z][A-Za-z0-9_]{0,39})\\}");
    private static final Pattern INTEGER = Pattern.compile("^-?[0-9]{1,9}$");
    private static final Pattern DURATION = Pattern.compile("^[0-9]{1,6}(s|m|h|d)$");
    private static final Pattern MODEL = Pattern.compile("^[a-z0-9][a-z0-9.-]{0,62}$");
    /** Fields of a job spec a template may set; the links are Crater's. */
    static final Set<String> SPEC_FIELDS = Set.of(
            "name",
            "kind",
            "image",
            "command",
            "args",
            "workingDir",
            "env",
            "resources",
            "workers",
            "timeLimit",
            "priority");

    private JobTemplates() {}

    /** Checks a template's definition; the field errors, empty when it is sound. */
    static List<Problem.FieldError> checkDefinition(List<Parameter> parameters, Map<String, Object> spec) {
        List<Problem.FieldError> errors = new ArrayList<>();
        List<Parameter> params = parameters == null ? List.of() : parameters;
        if (params.size() > MAX_PARAMETERS) {
            errors.add(new Problem.FieldError("parameters", "at most " + MAX_PARAMETERS));
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < params.size(); i++) {
            checkParameter(params.get(i), "parameters[" + i + "]", names, errors);
        }
        if (spec == null) {
            errors.add(new Problem.FieldError("spec", "required: the job spec with ${name} placeholders"));
            return errors;
        }
        checkSpec(spec, params, errors);
        return errors;
    }

    private static void checkParameter(Parameter p, String at, Set<String> names, List<Problem.FieldError> errors) {
        if (p == null || p.name() == null || !NAME.matcher(p.name()).matches()) {
            errors.add(new Problem.FieldError(at + ".name", "a letter, then letters, digits or _ (up to 40)"));
            return;
        }
        if (!names.add(p.name())) {
            errors.add(new Problem.FieldError(at + ".name", "'" + p.name() + "' is declared twice"));
        }
        if (p.type() == null || !TYPES.contains(p.type())) {
            errors.add(new Problem.FieldError(at + ".type", "one of " + String.join(", ", sorted(TYPES))));
            return;
        }
        if (p.label() != null && p.label().length() > 100) {
            errors.add(new Problem.FieldError(at + ".label", "at most 100 characters"));
        }
        if (p.description() != null && p.description().length() > 1000) {
            errors.add(new Problem.FieldError(at + ".description", "at most 1000 characters"));
        }
        if (p.i18n() != null) {
            p.i18n().forEach((lang, text) -> {
                if (text != null && text.label() != null && text.label().length() > 100) {
                    errors.add(new Problem.FieldError(at + ".i18n." + lang + ".label", "at most 100 characters"));
                }
                if (text != null
                        && text.description() != null
                        && text.description().length() > 1000) {
                    errors.add(
                            new Problem.FieldError(at + ".i18n." + lang + ".description", "at most 1000 characters"));
                }
            });
        }
        if ("choice".equals(p.type())
                && (p.options() == null || p.options().isEmpty() || p.options().size() > 100)) {
            errors.add(new Problem.FieldError(at + ".options", "1 to 100 options for a choice"));
            return;
        }
        if (p.defaultValue() != null && !p.defaultValue().isEmpty()) {
            String problem = problem(p, p.defaultValue());
            if (problem != null) {
                errors.add(new Problem.FieldError(at + ".default", problem));
            }
        }
    }

    /** The spec's fields and kind; when all else is sound, that it reads as a job spec rendered with samples. */
    private static void checkSpec(Map<String, Object> spec, List<Parameter> params, List<Problem.FieldError> errors) {
        for (String key : spec.keySet()) {
            if (!SPEC_FIELDS.contains(key)) {
                errors.add(new Problem.FieldError("spec." + key, "not a field of a job spec"));
            }
        }
        Object kind = spec.get("kind");
        if (!(kind instanceof String k) || JobKind.of(k).isEmpty()) {
            errors.add(new Problem.FieldError(
                    "spec.kind", "one of jupyter, webide, custom, pytorch, inference (not a placeholder)"));
        }
        if (errors.isEmpty()) {
            // Rendered with a sample value of every parameter, the spec must read as a job spec.
            Map<String, String> samples = new LinkedHashMap<>();
            params.forEach(p -> samples.put(p.name(), sample(p)));
            try {
                Json.convert(substitute(Json.tree(spec), params, samples), JobViews.SubmitJob.class);
            } catch (IllegalArgumentException e) {
                errors.add(new Problem.FieldError("spec", "not a job spec: " + e.getMessage()));
            }
        }
    }

    /**
     * The job spec the template gives with these values (strings, numbers or booleans). Unknown names, missing
     * required values and values of the wrong type are refused with a field error per parameter.
     */
    static JobViews.SubmitJob render(List<Parameter> params, Object spec, Map<String, Object> given) {
        Map<String, Object> values = given == null ? Map.of() : given;
        List<Problem.FieldError> errors = new ArrayList<>();
        Set<String> declared = new HashSet<>();
        params.forEach(p -> declared.add(p.name()));
        values.keySet().stream()
                .filter(k -> !declared.contains(k))
                .sorted()
                .forEach(
                        k -> errors.add(new Problem.FieldError("parameters." + k, "not a parameter of this template")));
        Map<String, String> resolved = new LinkedHashMap<>();
        for (Parameter p : params) {
            String v = valueOf(p, values.get(p.name()));
            if (v == null || v.isEmpty()) {
                if (p.required()) {
                    errors.add(new Problem.FieldError("parameters." + p.name(), "required"));
                }
                resolved.put(p.name(), "");
                continue;
            }
            String problem = problem(p, v);
            if (problem != null) {
                errors.add(new Problem.FieldError("parameters." + p.name(), problem));
            }
            resolved.put(p.name(), v);
        }
        if (!errors.isEmpty()) {
            throw ApiException.badRequest("InvalidParameters", "the template's parameters are not valid", errors);
        }
        try {
            return Json.convert(substitute(Json.tree(spec), params, resolved), JobViews.SubmitJob.class);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(
                    "InvalidTemplate",
                    "the template does not give a job spec: " + e.getMessage(),
                    List.of(new Problem.FieldError("template", e.getMessage())));
        }
    }

    /** The values as strings, for the record a job keeps of how it was rendered. */
    static Map<String, Object> asStrings(List<Parameter> params, Map<String, Object> given) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Parameter p : params) {
            String v = valueOf(p, given == null ? null : given.get(p.name()));
            out.put(p.name(), v == null ? "" : v);
        }
        return out;
    }

    /** The value given (trimmed), or the default when none or an empty one was given. */
    private static String valueOf(Parameter p, Object raw) {
        String v = raw == null ? "" : String.valueOf(raw).trim();
        return v.isEmpty() ? p.defaultValue() : v;
    }

    /** Why a value does not fit a parameter's type; null when it fits. */
    static String problem(Parameter p, String v) {
        return switch (p.type()) {
            case "integer" -> INTEGER.matcher(v).matches() ? null : "a whole number";
            case "quantity" -> quantityProblem(v);
            case "duration" -> DURATION.matcher(v).matches() ? null : "a duration such as 90m, 12h or 3d";
            case "model" -> MODEL.matcher(v).matches() ? null : "an accelerator model key";
            case "dataset", "ml-model" ->
                io.crater.policy.DataMounts.reference(v)
                        ? null
                        : "a " + ("dataset".equals(p.type()) ? "dataset" : "model") + ": its name, owner/name or id";
            case "choice" -> p.options().contains(v) ? null : "one of " + String.join(", ", p.options());
            case "boolean" -> v.equals("true") || v.equals("false") ? null : "true or false";
            case "text" -> v.length() <= 32_768 ? null : "at most 32768 characters";
            case "arguments" -> v.length() > 16_384 ? "at most 16384 characters" : splitProblem(v);
            default -> v.length() <= 4096 ? null : "at most 4096 characters";
        };
    }

    private static String quantityProblem(String v) {
        try {
            Quantities.toMilli(v);
            return null;
        } catch (Quantities.TooLarge e) {
            return "too large for any resource";
        } catch (IllegalArgumentException e) {
            return "a quantity such as 4, 500m or 16Gi";
        }
    }

    private static String splitProblem(String v) {
        try {
            split(v);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    private static String sample(Parameter p) {
        if (p.defaultValue() != null && !p.defaultValue().isEmpty()) {
            return p.defaultValue();
        }
        return switch (p.type()) {
            case "integer", "quantity" -> "1";
            case "duration" -> "1h";
            case "boolean" -> "false";
            case "choice" -> p.options().get(0);
            case "model" -> "";
            case "dataset", "ml-model" -> "sample";
            default -> "x";
        };
    }

    /** The tree with values put in; a string that is exactly one placeholder takes the typed value. */
    static JsonNode substitute(JsonNode node, List<Parameter> params, Map<String, String> values) {
        Map<String, Parameter> byName = new LinkedHashMap<>();
        params.forEach(p -> byName.put(p.name(), p));
        return walk(node, byName, values);
    }

    private static JsonNode walk(JsonNode node, Map<String, Parameter> params, Map<String, String> values) {
        if (node.isObject()) {
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            Iterator<Map.Entry<String, JsonNode>> it = node.fields();
            while (it.hasNext()) {
                var e = it.next();
                JsonNode v = walk(e.getValue(), params, values);
                if (!v.isNull()) {
                    out.set(e.getKey(), v);
                }
            }
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = JsonNodeFactory.instance.arrayNode();
            for (JsonNode item : node) {
                Parameter whole = wholePlaceholder(item, params);
                if (whole != null && "arguments".equals(whole.type())) {
                    split(values.get(whole.name())).forEach(out::add);
                    continue;
                }
                JsonNode v = walk(item, params, values);
                if (!v.isNull()) {
                    out.add(v);
                }
            }
            return out;
        }
        if (!node.isTextual()) {
            return node;
        }
        Parameter whole = wholePlaceholder(node, params);
        if (whole != null) {
            String v = values.get(whole.name());
            if (v.isEmpty()) {
                return NullNode.instance;
            }
            return switch (whole.type()) {
                case "integer" -> IntNode.valueOf(Integer.parseInt(v));
                case "boolean" -> BooleanNode.valueOf(Boolean.parseBoolean(v));
                default -> TextNode.valueOf(v);
            };
        }
        Matcher m = PLACEHOLDER.matcher(node.asText());
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String name = m.group(1);
            m.appendReplacement(sb, Matcher.quoteReplacement(params.containsKey(name) ? values.get(name) : m.group()));
        }
        m.appendTail(sb);
        return TextNode.valueOf(sb.toString());
    }

    private static Parameter wholePlaceholder(JsonNode node, Map<String, Parameter> params) {
        if (!node.isTextual()) {
            return null;
        }
        Matcher m = PLACEHOLDER.matcher(node.asText());
        return m.matches() ? params.get(m.group(1)) : null;
    }

    /** Splits a command line as a POSIX shell would split words: quotes and backslashes, no expansion. */
    static List<String> split(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote == '\'') {
                if (c == '\'') {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (quote == '"') {
                if (c == '"') {
                    quote = 0;
                } else if (c == '\\' && i + 1 < line.length() && "\"\\$`".indexOf(line.charAt(i + 1)) >= 0) {
                    word.append(line.charAt(++i));
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (c == '\\' && i + 1 < line.length()) {
                word.append(line.charAt(++i));
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (quote != 0) {
            throw new IllegalArgumentException("an unclosed " + quote + " quote");
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }

    private static List<String> sorted(Set<String> s) {
        return s.stream().sorted().toList();
    }
}
