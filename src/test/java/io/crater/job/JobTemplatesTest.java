package io.crater.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.crater.job.TemplateViews.Parameter;
import io.crater.platform.ApiException;
import io.crater.platform.Json;
import io.crater.platform.Problem;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Template definitions, values and rendering, as pure functions. */
class JobTemplatesTest {

    static Parameter p(String name, String type, String def, boolean required, String... options) {
        return new Parameter(name, name, null, type, def, required, options.length == 0 ? null : List.of(options));
    }

    static final List<Parameter> PARAMS = List.of(
            p("gpus", "integer", "1", false),
            p("model", "model", "", false),
            p("cmd", "arguments", null, true),
            p("size", "choice", "small", false, "small", "large"),
            p("memory", "quantity", "16Gi", false),
            p("limit", "duration", "2h", false));

    static final Map<String, Object> SPEC = Map.of(
            "kind",
            "custom",
            "name",
            "run-${size}",
            "image",
            "python:3.12",
            "command",
            List.of("bash", "-c", "cd ${HOME} && ${cmd}", "${cmd}"),
            "resources",
            Map.of("memory", "${memory}", "acceleratorModel", "${model}", "accelerators", "${gpus}"),
            "timeLimit",
            "${limit}");

    static Map<String, Object> values(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void rendersTypedValuesSplicesArgumentsAndLeavesUndeclaredNamesAlone() {
        JobViews.SubmitJob job = JobTemplates.render(
                PARAMS,
                SPEC,
                values(
                        "gpus",
                        4,
                        "model",
                        "nvidia-a100-80gb",
                        "cmd",
                        "python train.py --name 'my run'",
                        "size",
                        "large"));

        assertThat(job.name()).isEqualTo("run-large");
        assertThat(job.resources().accelerators()).isEqualTo(4);
        assertThat(job.resources().acceleratorModel()).isEqualTo("nvidia-a100-80gb");
        assertThat(job.resources().memory()).isEqualTo("16Gi");
        assertThat(job.timeLimit()).isEqualTo("2h");
        // Inside a string the value is text; standing alone in a list, arguments are split like a shell would.
        assertThat(job.command())
                .containsExactly(
                        "bash",
                        "-c",
                        "cd ${HOME} && python train.py --name 'my run'",
                        "python",
                        "train.py",
                        "--name",
                        "my run");
    }

    @Test
    void anEmptyOptionalValueStandingAloneRemovesTheField() {
        JobViews.SubmitJob job = JobTemplates.render(PARAMS, SPEC, values("cmd", "true", "gpus", ""));

        assertThat(job.resources().acceleratorModel()).isNull();
        // An empty value falls back to the default.
        assertThat(job.resources().accelerators()).isEqualTo(1);
    }

    @Test
    void badValuesAreRefusedWithOneFieldErrorEach() {
        assertThatThrownBy(() -> JobTemplates.render(
                        PARAMS,
                        SPEC,
                        values("gpus", "two", "size", "huge", "memory", "lots", "limit", "1 week", "bogus", "x")))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.code()).isEqualTo("InvalidParameters");
                    assertThat(e.errors())
                            .extracting(Problem.FieldError::field)
                            .containsExactlyInAnyOrder(
                                    "parameters.bogus",
                                    "parameters.gpus",
                                    "parameters.size",
                                    "parameters.memory",
                                    "parameters.limit",
                                    "parameters.cmd");
                    assertThat(e.errors())
                            .filteredOn(f -> f.field().equals("parameters.cmd"))
                            .extracting(Problem.FieldError::message)
                            .containsExactly("required");
                });
    }

    @Test
    void anUnclosedQuoteInArgumentsIsRefused() {
        assertThatThrownBy(() -> JobTemplates.render(PARAMS, SPEC, values("cmd", "echo 'oops")))
                .isInstanceOfSatisfying(
                        ApiException.class,
                        e -> assertThat(e.errors())
                                .extracting(Problem.FieldError::message)
                                .containsExactly("an unclosed ' quote"));
    }

    @Test
    void splitsLikeAShell() {
        assertThat(JobTemplates.split("  a  'b c' \"d \\\"e\\\"\" f\\ g ''"))
                .containsExactly("a", "b c", "d \"e\"", "f g", "");
        assertThat(JobTemplates.split("")).isEmpty();
    }

    @Test
    void definitionsAreChecked() {
        List<Problem.FieldError> errors = JobTemplates.checkDefinition(
                List.of(
                        p("a", "integer", "x", false),
                        p("a", "string", null, false),
                        p("1bad", "string", null, false),
                        p("c", "colour", null, false),
                        p("d", "choice", null, false)),
                Map.of("kind", "${kind}", "hostNetwork", true));

        assertThat(errors)
                .extracting(Problem.FieldError::field)
                .containsExactlyInAnyOrder(
                        "parameters[0].default",
                        "parameters[1].name",
                        "parameters[2].name",
                        "parameters[3].type",
                        "parameters[4].options",
                        "spec.hostNetwork",
                        "spec.kind");
    }

    @Test
    void aSpecThatDoesNotReadAsAJobIsRefused() {
        List<Problem.FieldError> errors =
                JobTemplates.checkDefinition(List.of(), Map.of("kind", "custom", "resources", "lots"));

        assertThat(errors).extracting(Problem.FieldError::field).containsExactly("spec");
    }

    @Test
    void everyBuiltInTemplateIsSoundAndRendersWithItsDefaults() throws Exception {
        try (InputStream in = getClass().getResourceAsStream("/templates/builtin.yaml")) {
            JsonNode all = Json.readYamlTree(in);
            assertThat(all).hasSize(6);
            for (JsonNode t : all) {
                List<Parameter> params = List.of(Json.convert(t.get("parameters"), Parameter[].class));
                @SuppressWarnings("unchecked")
                Map<String, Object> spec = Json.convert(t.get("spec"), Map.class);
                assertThat(JobTemplates.checkDefinition(params, spec))
                        .as(t.get("id").asText())
                        .isEmpty();
                Map<String, Object> required = new LinkedHashMap<>();
                params.stream()
                        .filter(x -> x.required()
                                && (x.defaultValue() == null || x.defaultValue().isEmpty()))
                        .forEach(x ->
                                required.put(x.name(), x.type().equals("model") ? "nvidia-a100-80gb" : "python x.py"));
                JobViews.SubmitJob job = JobTemplates.render(params, spec, required);
                assertThat(job.kind()).isEqualTo(spec.get("kind"));
            }
        }
    }

    @Test
    void everyBuiltinTemplateAndParameterSpeaksEnglishAndChinese() {
        List<BuiltinTemplates.Builtin> all = BuiltinTemplates.all();
        assertThat(all).extracting(BuiltinTemplates.Builtin::id).contains("jupyter-pytorch", "batch");
        for (BuiltinTemplates.Builtin b : all) {
            assertThat(b.texts().keySet()).as(b.id()).containsExactlyInAnyOrderElementsOf(BuiltinTemplates.LANGUAGES);
            b.texts().forEach((lang, text) -> {
                assertThat(text.name()).as(b.id() + " name " + lang).isNotBlank();
                assertThat(text.description())
                        .as(b.id() + " description " + lang)
                        .isNotBlank();
            });
            assertThat(b.texts().get("zh-CN").description())
                    .as(b.id())
                    .isNotEqualTo(b.texts().get("en").description());
            assertThat(b.texts().get("en").name()).isEqualTo(b.save().name());
            for (Parameter p : b.save().parameters()) {
                String at = b.id() + "." + p.name();
                assertThat(p.i18n().keySet()).as(at).containsExactlyInAnyOrderElementsOf(BuiltinTemplates.LANGUAGES);
                assertThat(p.i18n().get("en").label()).as(at).isEqualTo(p.label());
                assertThat(p.i18n().get("zh-CN").label()).as(at).isNotBlank();
                // A description in one language has one in the other.
                assertThat(p.i18n().get("zh-CN").description() == null)
                        .as(at + " description")
                        .isEqualTo(p.description() == null);
            }
        }
        assertThat(BuiltinTemplates.texts("jupyter-pytorch").get("zh-CN").description())
                .contains("笔记本");
        assertThat(BuiltinTemplates.texts("not-builtin")).isNull();
    }

    @Test
    void aTranslatedLabelIsHeldToTheSameLengthAsTheLabel() {
        Parameter long_ = new Parameter(
                "gpus",
                "GPUs",
                null,
                "integer",
                "1",
                false,
                null,
                Map.of("zh-CN", new TemplateViews.ParameterText("长".repeat(101), null)));
        assertThat(JobTemplates.checkDefinition(List.of(long_), SPEC))
                .extracting(Problem.FieldError::field)
                .containsExactly("parameters[0].i18n.zh-CN.label");
    }
}
