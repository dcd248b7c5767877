package io.crater.gpus;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.cluster.AcceleratorModel;
import io.crater.policy.MemberLimits;
import io.crater.policy.QuotaLine;
import io.crater.policy.Resources;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The free accelerators' answer from counts: per model and node, and each account's room in whole cards. */
class FreeAcceleratorsTest {

    static AcceleratorModel model(String key, Long memory, boolean restricted, boolean retired) {
        return new AcceleratorModel(
                key,
                "nvidia.com/gpu",
                "nvidia.com/gpu.product",
                key.toUpperCase(),
                key + " name",
                "NVIDIA",
                restricted,
                memory,
                null,
                retired,
                retired ? Instant.parse("2026-11-01T00:00:00Z") : null);
    }

    static final List<AcceleratorModel> CATALOGUE = List.of(
            model("a100", 81920L, false, false), model("v100", 16384L, false, true), model("h100", null, true, false));

    @Test
    void modelsSumTheirNodesMostFreeFirstAndRetiredModelsAreLeftOut() {
        var out = FreeAccelerators.build(
                CATALOGUE,
                List.of(
                        new FreeAccelerators.NodeCards("a-1", "a100", 8, 3, 81920L, true),
                        new FreeAccelerators.NodeCards("a-0", "a100", 8, 3, 81920L, true),
                        new FreeAccelerators.NodeCards("a-2", "a100", 8, 6, 81920L, true),
                        new FreeAccelerators.NodeCards("a-3", "a100", 8, 0, 81920L, false),
                        new FreeAccelerators.NodeCards("v-0", "v100", 4, 4, 16384L, true)),
                List.of());
        assertThat(out.models())
                .extracting(FreeAcceleratorViews.FreeModel::model)
                .containsExactly("a100", "h100");
        FreeAcceleratorViews.FreeModel a100 = out.models().get(0);
        assertThat(a100.total()).isEqualTo(32);
        assertThat(a100.free()).isEqualTo(12);
        assertThat(a100.mostOnOneNode()).isEqualTo(6);
        assertThat(a100.memoryMiB()).isEqualTo(81920L);
        assertThat(a100.nodes())
                .extracting(FreeAcceleratorViews.FreeNode::name)
                .containsExactly("a-2", "a-0", "a-1", "a-3");
        FreeAcceleratorViews.FreeModel h100 = out.models().get(1);
        assertThat(h100.restricted()).isTrue();
        assertThat(h100.nodes()).isEmpty();
        assertThat(h100.free()).isZero();
        assertThat(h100.mostOnOneNode()).isZero();
    }

    @Test
    void roomIsTheLeastOfTheAccountsHeadroomAndTheMembersLimitInWholeCards() {
        var lab = new FreeAccelerators.Account(
                "lab",
                // guaranteed 2, max 6, a grant of 1 in force, 3.5 cards used (milli-units)
                Map.of("a100", new QuotaLine("a100", 2000, 6000, 1000, 3500)),
                new MemberLimits(Map.of("a100", 4000L), null, null),
                new Resources(Map.of("a100", 2000L)));
        var r = FreeAccelerators.room("a100", lab);
        assertThat(r.used()).isEqualTo(3);
        assertThat(r.guaranteed()).isEqualTo(3);
        assertThat(r.max()).isEqualTo(7);
        assertThat(r.withinGuarantee()).isZero();
        assertThat(r.memberLeft()).isEqualTo(2);
        assertThat(r.mayStillUse()).isEqualTo(2);

        var open = new FreeAccelerators.Account(
                "open", Map.of("a100", new QuotaLine("a100", 4000, 8000, 0, 1000)), MemberLimits.NONE, Resources.NONE);
        var o = FreeAccelerators.room("a100", open);
        assertThat(o.memberLeft()).isNull();
        assertThat(o.mayStillUse()).isEqualTo(7);
        assertThat(o.withinGuarantee()).isEqualTo(3);

        var none = FreeAccelerators.room("h100", open);
        assertThat(none.max()).isZero();
        assertThat(none.mayStillUse()).isZero();

        var over = new FreeAccelerators.Account(
                "over",
                Map.of("a100", new QuotaLine("a100", 0, 2000, 0, 3000)),
                new MemberLimits(Map.of("a100", 1000L), null, null),
                new Resources(Map.of("a100", 3000L)));
        var v = FreeAccelerators.room("a100", over);
        assertThat(v.mayStillUse()).isZero();
        assertThat(v.memberLeft()).isZero();
    }

    @Test
    void accountsAreSortedAndListEveryModelThatIsNotRetired() {
        var out = FreeAccelerators.build(
                CATALOGUE,
                List.of(),
                List.of(
                        new FreeAccelerators.Account("zeta", Map.of(), MemberLimits.NONE, Resources.NONE),
                        new FreeAccelerators.Account("alpha", Map.of(), MemberLimits.NONE, Resources.NONE)));
        assertThat(out.accounts())
                .extracting(FreeAcceleratorViews.AccountRoom::account)
                .containsExactly("alpha", "zeta");
        assertThat(out.accounts().get(0).models())
                .extracting(FreeAcceleratorViews.ModelRoom::model)
                .containsExactly("a100", "h100");
    }

    @Test
    void memoryPerCardIsTheCataloguesElseTheNodesNvidiaLabel() {
        assertThat(FreeAccelerators.memoryMiB("nvidia.com/gpu", Map.of("nvidia.com/gpu.memory", "24564"), 81920L))
                .isEqualTo(81920L);
        assertThat(FreeAccelerators.memoryMiB("nvidia.com/gpu", Map.of("nvidia.com/gpu.memory", "24564"), null))
                .isEqualTo(24564L);
        assertThat(FreeAccelerators.memoryMiB("nvidia.com/gpu", Map.of("nvidia.com/gpu.memory", "lots"), null))
                .isNull();
        assertThat(FreeAccelerators.memoryMiB("huawei.com/Ascend910", Map.of("nvidia.com/gpu.memory", "1"), null))
                .isNull();
    }
}
