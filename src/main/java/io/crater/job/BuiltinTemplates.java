package io.crater.job;

import com.fasterxml.jackson.databind.JsonNode;
import io.crater.job.TemplateViews.Parameter;
import io.crater.job.TemplateViews.ParameterText;
import io.crater.job.TemplateViews.SaveTemplate;
import io.crater.job.TemplateViews.TemplateText;
import io.crater.platform.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Crater's built-in templates as {@code templates/builtin.yaml} defines them, with their names, descriptions and
 * parameter labels in every language of the console: the file's own text is {@code en}, its {@code i18n} maps add
 * the others ({@code zh-CN}).
 */
final class BuiltinTemplates {

    /** The languages every built-in template speaks. */
    static final List<String> LANGUAGES = List.of("en", "zh-CN");

    /** A built-in template: its id, what is saved for it, and its name and description per language. */
    record Builtin(String id, SaveTemplate save, Map<String, TemplateText> texts) {}

    private static volatile List<Builtin> all;

    private BuiltinTemplates() {}

    /** Every built-in template, read once from the class path. */
    static List<Builtin> all() {
        List<Builtin> out = all;
        if (out == null) {
            try (InputStream in = BuiltinTemplates.class.getResourceAsStream("/templates/builtin.yaml")) {
                out = read(Json.readYamlTree(in));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            all = out;
        }
        return out;
    }

    /** The name and description per language of the built-in template {@code id}; null for any other. */
    static Map<String, TemplateText> texts(String id) {
        return all().stream()
                .filter(b -> b.id().equals(id))
                .map(Builtin::texts)
                .findFirst()
                .orElse(null);
    }

    static List<Builtin> read(JsonNode file) {
        List<Builtin> out = new ArrayList<>();
        for (JsonNode t : file) {
            String name = t.get("name").asText();
            String description = t.get("description").asText();
            Map<String, TemplateText> texts = new LinkedHashMap<>();
            texts.put("en", new TemplateText(name, description));
            translations(t)
                    .forEach((lang, node) ->
                            texts.put(lang, new TemplateText(text(node, "name"), text(node, "description"))));
            List<Parameter> params = new ArrayList<>();
            for (JsonNode p : t.get("parameters")) {
                params.add(parameter(p));
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> spec = Json.convert(t.get("spec"), Map.class);
            out.add(new Builtin(
                    t.get("id").asText(),
                    new SaveTemplate(name, description, "public", null, List.copyOf(params), spec),
                    texts));
        }
        return List.copyOf(out);
    }

    private static Parameter parameter(JsonNode p) {
        Parameter base = Json.convert(p, Parameter.class);
        Map<String, ParameterText> texts = new LinkedHashMap<>();
        texts.put("en", new ParameterText(base.label(), base.description()));
        translations(p)
                .forEach((lang, node) ->
                        texts.put(lang, new ParameterText(text(node, "label"), text(node, "description"))));
        return new Parameter(
                base.name(),
                base.label(),
                base.description(),
                base.type(),
                base.defaultValue(),
                base.required(),
                base.options(),
                texts);
    }

    private static Map<String, JsonNode> translations(JsonNode node) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        JsonNode i18n = node.get("i18n");
        if (i18n != null) {
            i18n.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue()));
        }
        return out;
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}
