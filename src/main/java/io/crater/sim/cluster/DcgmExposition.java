package io.crater.sim.cluster;

import java.util.List;
import java.util.Locale;

/**
 * What NVIDIA's dcgm-exporter prints for the simulated cards (Prometheus text format 0.0.4): its metric names, HELP
 * and TYPE lines and labels ({@code gpu}, {@code UUID}, {@code pci_bus_id}, {@code device}, {@code modelName},
 * {@code Hostname}, {@code DCGM_FI_DRIVER_VERSION}, and {@code container}, {@code namespace}, {@code pod} for a card a
 * pod holds). Values come from the GPU exporter's reading of the holding pod; power, temperature and clock are a
 * plausible function of the utilisation and the model; a free card reads 0 % with its model's idle power and clock.
 */
final class DcgmExposition {

    /** The content type of the text format. */
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    /** A metric, with the type and help of dcgm-exporter's default counters. */
    record Metric(String name, String type, String help) {}

    /** The metrics served, in dcgm-exporter's order. */
    static final List<Metric> METRICS = List.of(
            new Metric("DCGM_FI_DEV_SM_CLOCK", "gauge", "SM clock frequency (in MHz)."),
            new Metric("DCGM_FI_DEV_GPU_TEMP", "gauge", "GPU temperature (in C)."),
            new Metric("DCGM_FI_DEV_POWER_USAGE", "gauge", "Power draw (in W)."),
            new Metric("DCGM_FI_DEV_GPU_UTIL", "gauge", "GPU utilization (in %)."),
            new Metric("DCGM_FI_DEV_MEM_COPY_UTIL", "gauge", "Memory utilization (in %)."),
            new Metric("DCGM_FI_DEV_XID_ERRORS", "gauge", "Value of the last XID error encountered."),
            new Metric("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "counter", "Total number of double-bit volatile ECC errors."),
            new Metric("DCGM_FI_DEV_FB_FREE", "gauge", "Framebuffer memory free (in MiB)."),
            new Metric("DCGM_FI_DEV_FB_USED", "gauge", "Framebuffer memory used (in MiB)."),
            new Metric("DCGM_FI_PROF_GR_ENGINE_ACTIVE", "gauge", "Ratio of time the graphics engine is active."));

    /** The driver version the simulated nodes report (a label of every series, as dcgm-exporter sets it). */
    static final String DRIVER = "550.127.08";

    /**
     * One card as the exporter sees it.
     *
     * @param namespace the holding pod's namespace; null for a free card
     * @param utilisation percent (0 for a free card)
     * @param memory percent of the card's memory in use
     */
    record CardState(
            GpuCards.Card card,
            String namespace,
            String pod,
            String container,
            double utilisation,
            double memory,
            GpuFaults.Fault fault) {

        CardState(
                GpuCards.Card card, String namespace, String pod, String container, double utilisation, double memory) {
            this(card, namespace, pod, container, utilisation, memory, GpuFaults.Fault.NONE);
        }

        static CardState free(GpuCards.Card card) {
            return new CardState(card, null, null, null, 0, 0);
        }

        /** The same card with its injected fault. */
        CardState with(GpuFaults.Fault f) {
            return new CardState(card, namespace, pod, container, utilisation, memory, f);
        }
    }

    /** A model's power and clock: idle and full-load draw in W, the idle and boost SM clock in MHz. */
    record Model(double idleWatts, double maxWatts, int idleClock, int maxClock, int idleTemp, int maxTemp) {

        /** The figures of a model, by its name (NVIDIA's published board power and boost clock). */
        static Model of(String modelName) {
            String name = modelName == null ? "" : modelName.toUpperCase(Locale.ROOT);
            if (name.contains("H100")) {
                return new Model(70, 700, 345, 1980, 31, 72);
            }
            if (name.contains("A100")) {
                return new Model(55, 400, 210, 1410, 30, 68);
            }
            if (name.contains("4090")) {
                return new Model(22, 450, 210, 2520, 33, 76);
            }
            return new Model(40, 300, 210, 1500, 32, 75);
        }
    }

    private DcgmExposition() {}

    /** The exposition of these cards: each metric's HELP and TYPE, then one series per card. */
    static String render(List<CardState> cards) {
        StringBuilder out = new StringBuilder(cards.size() * METRICS.size() * 260);
        for (Metric m : METRICS) {
            out.append("# HELP ").append(m.name()).append(' ').append(m.help()).append('\n');
            out.append("# TYPE ").append(m.name()).append(' ').append(m.type()).append('\n');
            for (CardState c : cards) {
                out.append(m.name());
                labels(out, c);
                out.append(' ').append(value(m.name(), c)).append('\n');
            }
        }
        return out.toString();
    }

    /** A metric's value for a card. */
    static String value(String metric, CardState c) {
        double u = clamp(c.utilisation());
        Model model = Model.of(c.card().modelName());
        long total = c.card().memoryMiB();
        long used = Math.round(total * clamp(c.memory()) / 100.0);
        return switch (metric) {
            case "DCGM_FI_DEV_SM_CLOCK" -> Integer.toString(u > 0 ? model.maxClock() : model.idleClock());
            case "DCGM_FI_DEV_GPU_TEMP" ->
                Long.toString(Math.round(model.idleTemp() + (model.maxTemp() - model.idleTemp()) * u / 100));
            case "DCGM_FI_DEV_POWER_USAGE" ->
                String.format(
                        Locale.ROOT, "%.3f", model.idleWatts() + (model.maxWatts() - model.idleWatts()) * u / 100);
            case "DCGM_FI_DEV_GPU_UTIL" -> Long.toString(Math.round(u));
            case "DCGM_FI_DEV_MEM_COPY_UTIL" -> Long.toString(Math.round(u / 2));
            case "DCGM_FI_DEV_XID_ERRORS" -> Long.toString(c.fault().xid());
            case "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL" -> Long.toString(c.fault().dbe());
            case "DCGM_FI_DEV_FB_FREE" -> Long.toString(total - used);
            case "DCGM_FI_DEV_FB_USED" -> Long.toString(used);
            case "DCGM_FI_PROF_GR_ENGINE_ACTIVE" -> String.format(Locale.ROOT, "%.6f", u / 100);
            default -> throw new IllegalArgumentException("not a served metric: " + metric);
        };
    }

    private static void labels(StringBuilder out, CardState c) {
        GpuCards.Card card = c.card();
        out.append("{gpu=\"").append(card.index()).append('"');
        label(out, "UUID", card.uuid());
        label(out, "pci_bus_id", String.format(Locale.ROOT, "00000000:%02X:00.0", 0x10 + card.index()));
        label(out, "device", "nvidia" + card.index());
        label(out, "modelName", card.modelName());
        label(out, "Hostname", card.node());
        label(out, "DCGM_FI_DRIVER_VERSION", DRIVER);
        if (c.pod() != null) {
            label(out, "container", c.container());
            label(out, "namespace", c.namespace());
            label(out, "pod", c.pod());
        }
        out.append('}');
    }

    private static void label(StringBuilder out, String name, String value) {
        out.append(',').append(name).append("=\"");
        String v = value == null ? "" : value;
        for (int i = 0; i < v.length(); i++) {
            char ch = v.charAt(i);
            switch (ch) {
                case '\\' -> out.append("\\\\");
                case '"' -> out.append("\\\"");
                case '\n' -> out.append("\\n");
                default -> out.append(ch);
            }
        }
        out.append('"');
    }

    private static double clamp(double percent) {
        return Double.isFinite(percent) ? Math.max(0, Math.min(100, percent)) : 0;
    }
}
