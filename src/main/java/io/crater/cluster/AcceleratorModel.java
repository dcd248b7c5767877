package io.crater.cluster;

import java.time.Instant;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * An entry of the accelerator catalogue: the extended resource pods request and, where one resource carries several
 * models ({@code nvidia.com/gpu}), the node label that tells them apart ({@code labelKey}/{@code labelValue}, both
 * null when the resource alone names the model: a MIG profile, {@code hygon.com/dcu}); the display name and vendor an
 * administrator chose; the memory of one card in MiB (null: not known). A shared-GPU model (HAMi) names the
 * {@code memoryResource} each pod asks {@code memoryMiB} of per device. A restricted model needs an approved access
 * request; a retired one ({@code retiredAt} set) takes no new submissions or quota grants.
 */
@Schema(name = "AcceleratorModel")
public record AcceleratorModel(
        String key,
        String resource,
        String labelKey,
        String labelValue,
        String displayName,
        String vendor,
        boolean restricted,
        Long memoryMiB,
        String memoryResource,
        boolean retired,
        Instant retiredAt) {

    /** This model describes a node's {@code resource}: same resource and, if the model has one, its label. */
    public boolean matches(Map<String, String> nodeLabels) {
        return labelKey == null || (nodeLabels != null && labelValue.equals(nodeLabels.get(labelKey)));
    }

    /** The node selector of a pod asking for this model: its label, or none. */
    public Map<String, String> nodeSelector() {
        return labelKey == null ? Map.of() : Map.of(labelKey, labelValue);
    }
}
