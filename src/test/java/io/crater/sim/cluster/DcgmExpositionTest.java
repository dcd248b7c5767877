package io.crater.sim.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The simulated DCGM exporter's text: dcgm-exporter's names, types, help and labels, values from the readings. */
class DcgmExpositionTest {

    static final GpuCards.Card A100_3 =
            new GpuCards.Card("a100-1", "nvidia.com/gpu", 3, "GPU-x", "NVIDIA A100 SXM4 80GB", 81920);
    static final GpuCards.Card RTX_0 =
            new GpuCards.Card("rtx4090-0", "nvidia.com/gpu", 0, "GPU-y", "NVIDIA GeForce RTX 4090", 24564);

    /**
     * The uncorrectable ECC count is one of dcgm-exporter's counters but off in its default list: GPU health reads it
     * (docs/nodes.md), so the simulated exporter serves it as a cluster whose operator turned it on would.
     */
    static final List<String> TURNED_ON = List.of("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL");

    @Test
    void everyMetricIsOneOfDcgmExportersDefaultCountersWithItsTypeAndHelp() {
        Map<String, DcgmCounters.Family> defaults = new java.util.LinkedHashMap<>(DcgmCounters.defaults());
        TURNED_ON.forEach(name -> defaults.put(name, DcgmCounters.optional().get(name)));
        Map<String, DcgmCounters.Family> served =
                DcgmCounters.families(DcgmExposition.render(List.of(DcgmExposition.CardState.free(RTX_0))));
        assertThat(served.keySet())
                .contains(
                        "DCGM_FI_DEV_GPU_UTIL",
                        "DCGM_FI_DEV_MEM_COPY_UTIL",
                        "DCGM_FI_DEV_FB_USED",
                        "DCGM_FI_DEV_FB_FREE",
                        "DCGM_FI_DEV_POWER_USAGE",
                        "DCGM_FI_DEV_GPU_TEMP",
                        "DCGM_FI_DEV_SM_CLOCK",
                        "DCGM_FI_DEV_XID_ERRORS",
                        "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL",
                        "DCGM_FI_PROF_GR_ENGINE_ACTIVE");
        served.forEach((name, family) -> assertThat(defaults.get(name))
                .as(name + " in dcgm-exporter's default counters")
                .isEqualTo(family));
    }

    @Test
    void aHeldCardReadsItsPodsUtilisationAndMemoryAndAFreeCardIdles() {
        String text = DcgmExposition.render(List.of(
                new DcgmExposition.CardState(A100_3, "crater-jobs", "c-ab12cd-main-0", "main", 90, 50),
                DcgmExposition.CardState.free(RTX_0)));
        String held = "{gpu=\"3\",UUID=\"GPU-x\",pci_bus_id=\"00000000:13:00.0\",device=\"nvidia3\","
                + "modelName=\"NVIDIA A100 SXM4 80GB\",Hostname=\"a100-1\",DCGM_FI_DRIVER_VERSION=\"550.127.08\","
                + "container=\"main\",namespace=\"crater-jobs\",pod=\"c-ab12cd-main-0\"}";
        String free = "{gpu=\"0\",UUID=\"GPU-y\",pci_bus_id=\"00000000:10:00.0\",device=\"nvidia0\","
                + "modelName=\"NVIDIA GeForce RTX 4090\",Hostname=\"rtx4090-0\",DCGM_FI_DRIVER_VERSION=\"550.127.08\"}";
        assertThat(text.split("\n"))
                .contains(
                        "# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).",
                        "# TYPE DCGM_FI_DEV_GPU_UTIL gauge",
                        "DCGM_FI_DEV_GPU_UTIL" + held + " 90",
                        "DCGM_FI_DEV_GPU_UTIL" + free + " 0",
                        "DCGM_FI_PROF_GR_ENGINE_ACTIVE" + held + " 0.900000",
                        "DCGM_FI_PROF_GR_ENGINE_ACTIVE" + free + " 0.000000",
                        "DCGM_FI_DEV_MEM_COPY_UTIL" + held + " 45",
                        // 50 % of 81,920 MiB
                        "DCGM_FI_DEV_FB_USED" + held + " 40960",
                        "DCGM_FI_DEV_FB_FREE" + held + " 40960",
                        "DCGM_FI_DEV_FB_USED" + free + " 0",
                        "DCGM_FI_DEV_FB_FREE" + free + " 24564",
                        // an A100 draws 55 W idle and 400 W at full load: 55 + 345 × 0.9
                        "DCGM_FI_DEV_POWER_USAGE" + held + " 365.500",
                        "DCGM_FI_DEV_POWER_USAGE" + free + " 22.000",
                        // 30 °C idle, 68 °C at full load: 30 + 38 × 0.9 = 64.2
                        "DCGM_FI_DEV_GPU_TEMP" + held + " 64",
                        "DCGM_FI_DEV_GPU_TEMP" + free + " 33",
                        "DCGM_FI_DEV_SM_CLOCK" + held + " 1410",
                        "DCGM_FI_DEV_SM_CLOCK" + free + " 210",
                        "DCGM_FI_DEV_XID_ERRORS" + held + " 0");
        assertThat(text.lines().filter(l -> !l.startsWith("#")))
                .as("one series per card and metric")
                .hasSize(2 * DcgmExposition.METRICS.size());
    }

    @Test
    void labelValuesAreEscapedAndReadingsOutOfRangeAreClamped() {
        GpuCards.Card odd = new GpuCards.Card("n", "nvidia.com/gpu", 0, "GPU-z", "A \"quoted\\\" name", 1000);
        String text =
                DcgmExposition.render(List.of(new DcgmExposition.CardState(odd, "ns", "p", "c", 250, Double.NaN)));
        assertThat(text).contains("modelName=\"A \\\"quoted\\\\\\\" name\"");
        assertThat(text).contains("} 100\n").contains("DCGM_FI_DEV_FB_USED{").doesNotContain("NaN");
    }

    @Test
    void anInjectedFaultIsTheCardsLastXidAndItsUncorrectableEccCount() {
        String text = DcgmExposition.render(List.of(
                new DcgmExposition.CardState(A100_3, "crater-jobs", "c-ab12cd-main-0", "main", 90, 50)
                        .with(new GpuFaults.Fault(79, 2)),
                DcgmExposition.CardState.free(RTX_0)));
        assertThat(text)
                .containsPattern("(?m)^DCGM_FI_DEV_XID_ERRORS\\{gpu=\"3\".*\\} 79$")
                .containsPattern("(?m)^DCGM_FI_DEV_ECC_DBE_VOL_TOTAL\\{gpu=\"3\".*\\} 2$")
                .containsPattern("(?m)^DCGM_FI_DEV_XID_ERRORS\\{gpu=\"0\".*\\} 0$")
                .containsPattern("(?m)^DCGM_FI_DEV_ECC_DBE_VOL_TOTAL\\{gpu=\"0\".*\\} 0$");
    }

    @Test
    void faultsParseFromTheNodesAnnotationAndWhatDoesNotParseIsIgnored() {
        assertThat(GpuFaults.parse("3:xid=79, 1:dbe=2,3:dbe=1"))
                .containsExactly(Map.entry(1, new GpuFaults.Fault(0, 2)), Map.entry(3, new GpuFaults.Fault(79, 1)));
        assertThat(GpuFaults.parse("x:xid=1,2:heat=9,4:xid=-1,5=xid=3,,")).isEmpty();
        assertThat(GpuFaults.parse(null)).isEmpty();
        assertThat(GpuFaults.parse("0:xid=0").get(0).any()).isFalse();
    }
}
