package io.crater.policy;

/**
 * One resource of an account's quota as it stands: configured values, active grants, usage and the part of the
 * usage that is borrowed (above guaranteed + grants). All in milli-units.
 */
public record QuotaLine(String resource, long guaranteed, long max, long granted, long used) {

    public long effectiveGuaranteed() {
        return guaranteed + granted;
    }

    public long effectiveMax() {
        return max + granted;
    }

    public long borrowed() {
        return Math.max(0, used - effectiveGuaranteed());
    }

    /** What the account may still take before reaching its effective max (never negative). */
    public long headroom() {
        return Math.max(0, effectiveMax() - used);
    }
}
