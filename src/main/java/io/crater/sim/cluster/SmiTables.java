package io.crater.sim.cluster;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code nvidia-smi} and {@code npu-smi info} print in a simulated container: the standard tables listing the
 * accelerators the container holds, named from the node's labels, with the GPU exporter's utilisation and memory.
 * What the simulator does not play (temperature, power, processes) shows as {@code N/A} or as no processes.
 */
final class SmiTables {

    static final String NVIDIA = "nvidia.com/gpu";
    static final String ASCEND_PREFIX = "huawei.com/Ascend";
    /** Node label of NVIDIA's GPU feature discovery: the product, dashes for spaces. */
    static final String NVIDIA_PRODUCT = "nvidia.com/gpu.product";
    /** Node label of NVIDIA's GPU feature discovery: each GPU's memory in MiB. */
    static final String NVIDIA_MEMORY = "nvidia.com/gpu.memory";
    /** Node label of the Ascend device plugin: the chip. */
    static final String ASCEND_CHIP = "node.kubernetes.io/npu.chip.name";
    /** The simulator's own node label: each accelerator's memory in MiB, for vendors that publish none. */
    static final String MEMORY_LABEL = "sim.crater.io/accelerator-memory";

    static final String NO_DRIVER = "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver."
            + " Make sure that the latest NVIDIA driver is installed and running.\n";
    /** The exit status of nvidia-smi without a driver. */
    static final int NO_DRIVER_STATUS = 9;

    private static final DateTimeFormatter STAMP =
            DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.ROOT);

    private SmiTables() {}

    /** The display name of an accelerator of {@code resource} on a node with {@code labels}; null: not one. */
    static String cardName(String resource, Map<String, String> labels) {
        if (resource.equals(NVIDIA)) {
            String product = labels.get(NVIDIA_PRODUCT);
            return product == null ? "NVIDIA GPU" : product.replace('-', ' ');
        }
        if (resource.startsWith(ASCEND_PREFIX)) {
            String chip = labels.get(ASCEND_CHIP);
            return chip != null ? chip : resource.substring("huawei.com/".length());
        }
        return null;
    }

    /** Each accelerator's memory in MiB from the node's labels; 0 when they do not say. */
    static long memoryMiB(String resource, Map<String, String> labels) {
        String value = resource.equals(NVIDIA) && labels.containsKey(NVIDIA_MEMORY)
                ? labels.get(NVIDIA_MEMORY)
                : labels.get(MEMORY_LABEL);
        try {
            return value == null ? 0 : Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** {@code nvidia-smi}: the table of the NVIDIA cards, or (none) the driver failure. */
    static String nvidia(List<ShellPod.Card> all, Map<String, String> labels, ZonedDateTime now) {
        List<ShellPod.Card> cards =
                all.stream().filter(c -> c.resource().equals(NVIDIA)).toList();
        StringBuilder sb = new StringBuilder();
        sb.append(STAMP.format(now)).append('\n');
        String driver = version(labels, "nvidia.com/cuda.driver.");
        String cuda = version(labels, "nvidia.com/cuda.runtime.");
        String rule = "+" + "-".repeat(89) + "+\n";
        String cells = "|" + "-".repeat(41) + "+" + "-".repeat(24) + "+" + "-".repeat(22) + "|\n";
        sb.append(rule);
        sb.append(line(
                String.format(" NVIDIA-SMI %-22s Driver Version: %-14s CUDA Version: %-9s", driver, driver, cuda)));
        sb.append(cells);
        sb.append("| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |\n");
        sb.append("| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |\n");
        sb.append("|                                         |                        |               MIG M. |\n");
        sb.append("|").append("=".repeat(41)).append("+").append("=".repeat(24)).append("+");
        sb.append("=".repeat(22)).append("|\n");
        for (int i = 0; i < cards.size(); i++) {
            ShellPod.Card c = cards.get(i);
            String name = c.name().length() > 29 ? c.name().substring(0, 26) + "..." : c.name();
            sb.append(String.format(
                    "| %3d  %-29s  On  |   00000000:%02X:00.0 Off |                    0 |\n", i, name, 0x10 + i));
            sb.append(String.format(
                    "| N/A   N/A    P0              N/A /  N/A | %7dMiB / %6sMiB | %6d%%      Default |\n",
                    c.memoryUsedMiB(),
                    c.memoryTotalMiB() == 0 ? "N/A" : Long.toString(c.memoryTotalMiB()),
                    c.utilisation()));
            sb.append("|                                         |                        |             Disabled |\n");
            sb.append(cells.replace('|', '+'));
        }
        sb.append(" ".repeat(91)).append('\n');
        sb.append(rule);
        sb.append(line(" Processes:"));
        sb.append(line("  GPU   GI   CI        PID   Type   Process name                              GPU Memory"));
        sb.append(line("        ID   ID                                                               Usage"));
        sb.append("|").append("=".repeat(89)).append("|\n");
        sb.append(line("  No running processes found"));
        sb.append(rule);
        return sb.toString();
    }

    /** {@code npu-smi info}: the table of the Ascend NPUs; null when the container holds none. */
    static String ascend(List<ShellPod.Card> all) {
        List<ShellPod.Card> cards =
                all.stream().filter(c -> c.resource().startsWith(ASCEND_PREFIX)).toList();
        if (cards.isEmpty()) {
            return null;
        }
        String rule = "+" + "-".repeat(27) + "+" + "-".repeat(15) + "+" + "-".repeat(52) + "+\n";
        String bold = rule.replace('-', '=');
        StringBuilder sb = new StringBuilder();
        sb.append("+").append("-".repeat(96)).append("+\n");
        sb.append(String.format("| %-95s|\n", "npu-smi (simulated)             Version: N/A"));
        sb.append(rule);
        sb.append(
                "| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|\n");
        sb.append(
                "| Chip                      | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |\n");
        sb.append(bold);
        for (int i = 0; i < cards.size(); i++) {
            ShellPod.Card c = cards.get(i);
            sb.append(String.format(
                    "| %-5d %-19s | OK            | %-11s %-17s %-21s|\n", i, c.name(), "N/A", "N/A", "0    / 0"));
            sb.append(String.format(
                    "| %-25d | 0000:%02X:00.0  | %-11d %-17s %-21s|\n",
                    0,
                    0xC1 + i,
                    c.utilisation(),
                    "0    / 0",
                    c.memoryUsedMiB() + " / " + (c.memoryTotalMiB() == 0 ? "N/A" : c.memoryTotalMiB())));
            sb.append(bold);
        }
        sb.append(rule);
        sb.append(
                "| NPU     Chip              | Process id    | Process name             | Process memory(MB)      |\n");
        sb.append(bold);
        for (int i = 0; i < cards.size(); i++) {
            sb.append(String.format("| %-95s|\n", "No running processes found in NPU " + i));
            sb.append(bold);
        }
        return sb.toString();
    }

    private static String line(String text) {
        return String.format("|%-89s|\n", text);
    }

    /** {@code major[.minor[.rev]]} from the labels under {@code prefix}, or {@code N/A}. */
    private static String version(Map<String, String> labels, String prefix) {
        String major = labels.get(prefix + "major");
        if (major == null) {
            return "N/A";
        }
        StringBuilder v = new StringBuilder(major);
        for (String part : List.of("minor", "rev")) {
            String p = labels.get(prefix + part);
            if (p == null) {
                break;
            }
            v.append('.').append(p);
        }
        return v.toString();
    }

    static ZonedDateTime utc(java.time.Instant now) {
        return now.atZone(ZoneOffset.UTC);
    }
}
