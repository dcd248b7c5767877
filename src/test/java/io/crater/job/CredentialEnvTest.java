package io.crater.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.crater.platform.ApiException;
import io.crater.platform.Json;
import io.crater.platform.Problem;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Environment values that reference credentials: how the spec reads, what is refused, what the pods get. */
class CredentialEnvTest {

    private static final JobSpecs.TimeLimits LIMITS =
            new JobSpecs.TimeLimits(Duration.ofHours(8), Duration.ofDays(1), Duration.ofDays(1), Duration.ofDays(7));

    private static JobViews.SubmitJob job(String envJson) {
        return Json.read(
                "{\"name\":\"train\",\"kind\":\"custom\",\"image\":\"python:3.12\",\"command\":[\"python\"],\"env\":"
                        + envJson + "}",
                JobViews.SubmitJob.class);
    }

    private static JobInputs.Spec checked(String envJson) {
        return JobSpecs.check(job(envJson), List.of(), null, LIMITS).spec();
    }

    @Test
    void plainValuesAndReferencesAreToldApart() {
        JobInputs.Spec spec = checked("{\"HF_HOME\":\"/data/hf\",\"SEED\":7,\"HF_TOKEN\":{\"credential\":\"hf\"}}");
        assertThat(spec.env()).containsExactlyInAnyOrderEntriesOf(Map.of("HF_HOME", "/data/hf", "SEED", "7"));
        assertThat(spec.credentialEnv()).containsExactlyEntriesOf(Map.of("HF_TOKEN", "hf"));
    }

    @Test
    void theStoredSpecKeepsTheReferenceAsWritten() {
        JobViews.SubmitJob req = job("{\"A\":\"x\",\"HF_TOKEN\":{\"credential\":\"hf\"}}");
        String written = Json.write(req);
        assertThat(written).contains("\"HF_TOKEN\":{\"credential\":\"hf\"}").contains("\"A\":\"x\"");
        assertThat(Json.read(written, JobViews.SubmitJob.class).env())
                .containsEntry("HF_TOKEN", EnvValue.reference("hf"))
                .containsEntry("A", EnvValue.plain("x"));
    }

    @ParameterizedTest(name = "{0} is refused: {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"T\":{\"credential\":\"Bad_Name\"}}|env.T|a credential name: 1 to 40 lowercase letters, digits or -",
                "{\"T\":{\"secret\":\"hf\"}}|env.T|a string, or {\"credential\": name} to take the value from one of your credentials",
                "{\"T\":{\"credential\":\"hf\",\"key\":\"x\"}}|env.T|a string, or {\"credential\": name} to take the value from one of your credentials",
                "{\"T\":[\"a\"]}|env.T|a string, or {\"credential\": name} to take the value from one of your credentials",
                "{\"CRATER_X\":{\"credential\":\"hf\"}}|env.CRATER_X|set by Crater",
                "{\"1X\":{\"credential\":\"hf\"}}|env.1X|not a variable name"
            })
    void badEntriesAreRefusedByField(String env, String field, String message) {
        assertThatThrownBy(() -> checked(env))
                .isInstanceOfSatisfying(
                        ApiException.class,
                        e -> assertThat(e.errors()).containsExactly(new Problem.FieldError(field, message)));
    }

    private static JobInputs.Spec withRefs(Map<String, String> refs) {
        JobInputs.Spec s = JobManifestsTest.spec(JobKind.CUSTOM);
        return new JobInputs.Spec(
                "jcred42",
                s.displayName(),
                s.kind(),
                s.image(),
                s.command(),
                s.args(),
                s.workingDir(),
                s.env(),
                s.cpuMilli(),
                s.memoryBytes(),
                s.accelerator(),
                s.acceleratorsPerPod(),
                s.sharedMemoryBytes(),
                s.workers(),
                s.timeLimit(),
                refs);
    }

    private static Secret secret(JobManifests.Manifests m) {
        return m.companions().stream()
                .filter(o -> o instanceof Secret)
                .map(Secret.class::cast)
                .filter(o -> o.getMetadata().getName().equals("c-jcred42-credentials"))
                .findFirst()
                .orElseThrow();
    }

    private static String decoded(Secret s, String key) {
        return new String(Base64.getDecoder().decode(s.getData().get(key)), StandardCharsets.UTF_8);
    }

    @Test
    void thePodTakesTheValueFromTheJobsSecretByKey() {
        JobManifests.Manifests m = JobManifests.build(
                withRefs(Map.of("HF_TOKEN", "hf", "WANDB_API_KEY", "wb")),
                JobManifestsTest.OWNER,
                JobManifestsTest.PLACEMENT,
                "t",
                Map.of("hf", "hf_value_1", "wb", "wb_value_2"));
        EnvVar token = m.volcanoJob().getSpec().tasks.get(0).template.getSpec().getContainers().get(0).getEnv().stream()
                .filter(e -> e.getName().equals("HF_TOKEN"))
                .findFirst()
                .orElseThrow();
        assertThat(token.getValue()).isNull();
        assertThat(token.getValueFrom().getSecretKeyRef().getName()).isEqualTo("c-jcred42-credentials");
        assertThat(token.getValueFrom().getSecretKeyRef().getKey()).isEqualTo("HF_TOKEN");
        assertThat(token.getValueFrom().getSecretKeyRef().getOptional()).isFalse();
        Secret s = secret(m);
        assertThat(s.getData()).containsOnlyKeys("HF_TOKEN", "WANDB_API_KEY");
        assertThat(decoded(s, "HF_TOKEN")).isEqualTo("hf_value_1");
        assertThat(decoded(s, "WANDB_API_KEY")).isEqualTo("wb_value_2");
        assertThat(s.getMetadata().getLabels()).containsEntry(JobNames.JOB_ID, "jcred42");
    }

    @Test
    void theReadableManifestsWithholdTheValues() {
        JobManifests.Manifests m = JobManifests.build(
                withRefs(Map.of("HF_TOKEN", "hf")), JobManifestsTest.OWNER, JobManifestsTest.PLACEMENT, "t");
        assertThat(decoded(secret(m), "HF_TOKEN")).isEqualTo("<withheld>");
    }

    @Test
    void aCredentialGoneBeforeTheJobRanLeavesItsKeyOut() {
        JobManifests.Manifests m = JobManifests.build(
                withRefs(Map.of("HF_TOKEN", "hf", "WANDB_API_KEY", "wb")),
                JobManifestsTest.OWNER,
                JobManifestsTest.PLACEMENT,
                "t",
                Map.of("wb", "wb_value_2"));
        assertThat(secret(m).getData()).containsOnlyKeys("WANDB_API_KEY");
    }

    @Test
    void aJobWithoutReferencesHasNoCredentialsSecret() {
        List<HasMetadata> companions = JobManifests.build(
                        JobManifestsTest.spec(JobKind.CUSTOM), JobManifestsTest.OWNER, JobManifestsTest.PLACEMENT, "t")
                .companions();
        assertThat(companions).noneMatch(o -> o.getMetadata().getName().endsWith("-credentials"));
    }
}
