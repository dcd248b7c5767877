package io.crater.gpus;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CardReadingsTest {

    static final String LABELS0 = "gpu=\"0\",UUID=\"GPU-a\",modelName=\"NVIDIA H100 80GB HBM3\",Hostname=\"h100-0\"";
    static final String LABELS1 = "gpu=\"1\",UUID=\"GPU-b\",modelName=\"NVIDIA H100 80GB HBM3\",Hostname=\"h100-0\"";

    @Test
    void assemblesEachCardFromItsMetricsAndItsHolder() {
        String text = "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n"
                + "DCGM_FI_DEV_GPU_UTIL{" + LABELS0
                + ",container=\"main\",namespace=\"crater-jobs\",pod=\"c-j1-main-0\"} 73\n"
                + "DCGM_FI_DEV_GPU_UTIL{" + LABELS1 + "} 0\n"
                + "DCGM_FI_DEV_FB_USED{" + LABELS0 + ",namespace=\"crater-jobs\",pod=\"c-j1-main-0\"} 1024\n"
                + "DCGM_FI_DEV_FB_FREE{" + LABELS0 + ",namespace=\"crater-jobs\",pod=\"c-j1-main-0\"} 80896\n"
                + "DCGM_FI_DEV_POWER_USAGE{" + LABELS0 + "} 541.1\n"
                + "DCGM_FI_DEV_GPU_TEMP{" + LABELS0 + "} 61\n"
                + "DCGM_FI_DEV_SM_CLOCK{" + LABELS0 + "} 1980\n";
        List<CardReading> cards = CardReadings.of(ExpositionParser.parse(text));
        assertThat(cards)
                .containsExactly(
                        new CardReading(
                                "h100-0",
                                0,
                                "GPU-a",
                                "NVIDIA H100 80GB HBM3",
                                "crater-jobs",
                                "c-j1-main-0",
                                73.0,
                                1024L,
                                81920L,
                                541.1,
                                61.0),
                        // Memory, power and temperature missing: null, never 0; no pod: free.
                        new CardReading(
                                "h100-0",
                                1,
                                "GPU-b",
                                "NVIDIA H100 80GB HBM3",
                                null,
                                null,
                                0.0,
                                null,
                                null,
                                null,
                                null));
    }

    @Test
    void nanIsMissingAndExportedLabelsWin() {
        String text = "DCGM_FI_DEV_GPU_UTIL{" + LABELS0
                + ",namespace=\"gpu-operator\",pod=\"dcgm-exporter-x\",exported_namespace=\"crater-jobs\","
                + "exported_pod=\"c-j2-main-0\"} NaN\n"
                + "DCGM_FI_DEV_FB_USED{" + LABELS0 + "} 10\n";
        CardReading card = CardReadings.of(ExpositionParser.parse(text)).get(0);
        assertThat(card.utilisation()).isNull();
        assertThat(card.pod()).isEqualTo("c-j2-main-0");
        assertThat(card.namespace()).isEqualTo("crater-jobs");
        assertThat(card.memoryUsedMiB()).isEqualTo(10L);
        assertThat(card.memoryTotalMiB()).isNull();
    }

    @Test
    void samplesWithoutNodeOrIndexAreSkipped() {
        String text = "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\"} 5\n"
                + "DCGM_FI_DEV_GPU_UTIL{Hostname=\"n\",gpu=\"x\"} 5\n"
                + "DCGM_FI_DEV_GPU_UTIL{Hostname=\"n\",gpu=\"2\"} 5\n";
        assertThat(CardReadings.of(ExpositionParser.parse(text)))
                .extracting(CardReading::node, CardReading::index)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("n", 2));
    }

    @Test
    void prometheusVectorAnswersGiveTheSameCards() {
        String body = "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
                + "{\"metric\":{\"__name__\":\"DCGM_FI_DEV_GPU_UTIL\",\"gpu\":\"3\",\"Hostname\":\"a100-1\","
                + "\"modelName\":\"NVIDIA A100\",\"exported_pod\":\"p\",\"exported_namespace\":\"ns\"},"
                + "\"value\":[1733000000.1,\"42\"]},"
                + "{\"metric\":{\"__name__\":\"DCGM_FI_DEV_GPU_TEMP\",\"gpu\":\"3\",\"Hostname\":\"a100-1\"},"
                + "\"value\":[1733000000.1,\"NaN\"]}]}}";
        CardReading card = CardReadings.of(PrometheusCards.samples(body)).get(0);
        assertThat(card.utilisation()).isEqualTo(42.0);
        assertThat(card.temperatureC()).isNull();
        assertThat(card.pod()).isEqualTo("p");
        assertThat(PrometheusCards.query())
                .isEqualTo("{__name__=~\"DCGM_FI_DEV_GPU_UTIL|DCGM_FI_DEV_FB_USED|DCGM_FI_DEV_FB_FREE"
                        + "|DCGM_FI_DEV_POWER_USAGE|DCGM_FI_DEV_GPU_TEMP|DCGM_FI_DEV_XID_ERRORS"
                        + "|DCGM_FI_DEV_ECC_DBE_VOL_TOTAL\"}");
    }

    @Test
    void aCardsLastXidAndUncorrectableEccCountAreReadAndAbsentOnesStayNull() {
        List<CardReading> cards =
                CardReadings.of(ExpositionParser.parse("DCGM_FI_DEV_XID_ERRORS{gpu=\"3\",Hostname=\"a100-1\"} 79\n"
                        + "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL{gpu=\"3\",Hostname=\"a100-1\"} 2\n"
                        + "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",Hostname=\"a100-1\"} 5\n"));
        assertThat(cards).hasSize(2);
        assertThat(cards.get(0).index()).isZero();
        assertThat(cards.get(0).xid()).isNull();
        assertThat(cards.get(0).eccDbe()).isNull();
        assertThat(cards.get(1).xid()).isEqualTo(79L);
        assertThat(cards.get(1).eccDbe()).isEqualTo(2L);
    }
}
