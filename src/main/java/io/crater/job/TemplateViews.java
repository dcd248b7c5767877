package io.crater.job;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Request and response records of the templates API. */
public final class TemplateViews {

    private TemplateViews() {}

    /**
     * A value a template asks for. The spec refers to it as {@code ${name}}; a string that is exactly
     * {@code ${name}} takes the typed value. Types: string, text, integer, quantity, duration, model, choice,
     * boolean, arguments (a command line split into a list where it stands alone in a list).
     */
    public record Parameter(
            String name,
            String label,
            String description,
            String type,

            @com.fasterxml.jackson.annotation.JsonProperty("default")
            String defaultValue,

            boolean required,
            List<String> options,
            Map<String, ParameterText> i18n) {

        /** A parameter without translations. */
        public Parameter(
                String name,
                String label,
                String description,
                String type,
                String defaultValue,
                boolean required,
                List<String> options) {
            this(name, label, description, type, defaultValue, required, options, null);
        }
    }

    /** A parameter's label and description in one language ({@code en}, {@code zh-CN}). */
    public record ParameterText(String label, String description) {}

    /** A template's name and description in one language ({@code en}, {@code zh-CN}). */
    public record TemplateText(String name, String description) {}

    /** A template in a list. */
    public record TemplateSummary(
            String id,
            String name,
            String description,
            String kind,
            boolean builtin,
            String visibility,
            String account,
            String owner,
            int version,
            Instant updatedAt,
            Map<String, TemplateText> i18n) {}

    /** A template version with its parameters and spec. */
    public record Template(
            String id,
            String name,
            String description,
            String kind,
            boolean builtin,
            String visibility,
            String account,
            String owner,
            int version,
            Instant updatedAt,
            Map<String, TemplateText> i18n,
            List<Parameter> parameters,
            Object spec,
            boolean canEdit) {}

    /** One saved version. */
    public record TemplateVersion(int version, Instant createdAt, String createdBy) {}

    /** Create a template or save a new version of it. */
    public record SaveTemplate(
            String name,
            String description,
            String visibility,
            String account,
            List<Parameter> parameters,
            Map<String, Object> spec) {}

    /** Save a job's spec as a template. */
    public record SaveJobAsTemplate(String name, String description, String visibility, String account) {}

    /** Render a template version with values. */
    public record RenderRequest(Integer version, Map<String, Object> parameters) {}

    /** A rendered template: the job spec and the same as YAML. */
    public record Rendered(JobViews.SubmitJob spec, String yaml) {}

    /** A list of items. */
    public record Items<T>(List<T> items) {}
}
