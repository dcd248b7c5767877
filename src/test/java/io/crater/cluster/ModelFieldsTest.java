package io.crater.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.platform.Problem;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which catalogue entries are well formed, field by field. */
class ModelFieldsTest {

    @ParameterizedTest(name = "{0} {1} {2}={3} mem {4} {5} → {6}")
    @CsvSource(
            nullValues = "-",
            value = {
                "nvidia-h100-80gb, nvidia.com/gpu, nvidia.com/gpu.product, NVIDIA-H100-80GB-HBM3, 81559, -, ''",
                "a30-mig-1g, nvidia.com/mig-1g.6gb, -, -, 6144, -, ''",
                "hygon-dcu, hygon.com/dcu, -, -, -, -, ''",
                "ascend-910c, huawei.com/Ascend910, node.kubernetes.io/npu.chip.name, 910C, -, -, ''",
                "l40s-vgpu, nvidia.com/gpu, nvidia.com/gpu.product, NVIDIA-L40S, 4608, nvidia.com/gpumem, ''",
                "Upper, nvidia.com/gpu, -, -, -, -, key",
                "-dash, nvidia.com/gpu, -, -, -, -, key",
                "cpu, nvidia.com/gpu, -, -, -, -, key",
                "ok, gpu, -, -, -, -, resource",
                "ok, kubernetes.io/gpu, -, -, -, -, resource",
                "ok, a.k8s.io/gpu, -, -, -, -, resource",
                "ok, nvidia.com/a/b, -, -, -, -, resource",
                "ok, NVIDIA.com/gpu, -, -, -, -, resource",
                "ok, nvidia.com/gpu, nvidia.com/gpu.product, -, -, -, labelValue",
                "ok, nvidia.com/gpu, -, NVIDIA-L40S, -, -, labelKey",
                "ok, nvidia.com/gpu, bad key, v, -, -, labelKey",
                "ok, nvidia.com/gpu, k, -bad-, -, -, labelValue",
                "ok, nvidia.com/gpu, -, -, 0, -, memoryMiB",
                "ok, nvidia.com/gpu, -, -, 99999999999, -, memoryMiB",
                "ok, nvidia.com/gpu, -, -, -, nvidia.com/gpumem, memoryMiB",
                "ok, nvidia.com/gpu, -, -, 10, nvidia.com/gpu, memoryResource",
                "ok, nvidia.com/gpu, -, -, 10, gpumem, memoryResource",
            })
    void namesEachBadField(
            String key,
            String resource,
            String labelKey,
            String labelValue,
            Long memoryMiB,
            String memoryResource,
            String wantField) {
        List<Problem.FieldError> errors = ModelFields.check(new CatalogueService.NewModel(
                key, resource, labelKey, labelValue, "A name", "A vendor", memoryMiB, memoryResource, null));
        assertThat(errors)
                .extracting(Problem.FieldError::field)
                .isEqualTo(wantField.isEmpty() ? List.of() : List.of(wantField));
    }

    @ParameterizedTest
    @CsvSource(
            nullValues = "-",
            value = {"-, displayName", "'  ', displayName"})
    void namesAreRequired(String name, String field) {
        assertThat(ModelFields.check(new CatalogueService.NewModel(
                        "k", "hygon.com/dcu", null, null, name, "Hygon", null, null, null)))
                .extracting(Problem.FieldError::field)
                .containsExactly(field);
    }
}
