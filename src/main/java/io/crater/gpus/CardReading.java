package io.crater.gpus;

/**
 * One accelerator card as its exporter reports it: where it is, which pod holds it (null when none does), and its
 * readings, each null when the exporter did not report it (or reported NaN).
 *
 * @param node the node ({@code Hostname})
 * @param index the card's index on the node ({@code gpu})
 * @param utilisation percent ({@code DCGM_FI_DEV_GPU_UTIL})
 * @param memoryUsedMiB {@code DCGM_FI_DEV_FB_USED}
 * @param memoryTotalMiB used + free ({@code DCGM_FI_DEV_FB_FREE}), null unless both are known
 * @param powerWatts {@code DCGM_FI_DEV_POWER_USAGE}
 * @param temperatureC {@code DCGM_FI_DEV_GPU_TEMP}
 * @param xid the last XID error the card reported, 0 for none ({@code DCGM_FI_DEV_XID_ERRORS})
 * @param eccDbe its uncorrectable (double-bit) ECC errors since the driver loaded ({@code DCGM_FI_DEV_ECC_DBE_VOL_TOTAL},
 *     which dcgm-exporter reports once its operator turns the counter on)
 */
record CardReading(
        String node,
        int index,
        String uuid,
        String modelName,
        String namespace,
        String pod,
        Double utilisation,
        Long memoryUsedMiB,
        Long memoryTotalMiB,
        Double powerWatts,
        Double temperatureC,
        Long xid,
        Long eccDbe) {

    /** A card whose exporter reports no error counters. */
    CardReading(
            String node,
            int index,
            String uuid,
            String modelName,
            String namespace,
            String pod,
            Double utilisation,
            Long memoryUsedMiB,
            Long memoryTotalMiB,
            Double powerWatts,
            Double temperatureC) {
        this(
                node,
                index,
                uuid,
                modelName,
                namespace,
                pod,
                utilisation,
                memoryUsedMiB,
                memoryTotalMiB,
                powerWatts,
                temperatureC,
                null,
                null);
    }

    boolean held() {
        return pod != null;
    }
}
