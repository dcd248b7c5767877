package io.crater.job;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.crater.account.AccountTargets;
import io.crater.audit.AuditService;
import io.crater.identity.Caller;
import io.crater.platform.ApiException;
import io.crater.platform.Json;
import io.crater.platform.Problem;
import io.crater.policy.Features;
import io.crater.policy.Reason;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What each account's members may use (the job kinds, SSH and the web terminal, high priority) and the bandwidth caps
 * of its jobs' pods: the account's own settings, set by platform admins, over the platform's defaults
 * ({@code crater.jobs.personal-features-off}, {@code ingress-bandwidth}, {@code egress-bandwidth}). Submissions,
 * shells into pods and the pods' manifests all read them here.
 */
@ApplicationScoped
public class FeatureService {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** Every feature a platform admin can turn off, in the order the API lists them: the job kinds, then the rest. */
    public static final List<String> KNOWN = known();

    @Inject
    JobsConfig config;

    @Inject
    AuditService audit;

    @Inject
    AccountTargets accounts;

    /**
     * An account's settings: its own ({@code features} names only what it set; a null cap is the platform's, {@code
     * none} no cap) and those in force.
     */
    public record AccountFeatures(
            Map<String, Boolean> features,
            String ingressBandwidth,
            String egressBandwidth,
            EffectiveFeatures effective) {}

    /** The settings in force: every feature on or off, and the caps written on the pods (null: none). */
    public record EffectiveFeatures(Map<String, Boolean> features, String ingressBandwidth, String egressBandwidth) {

        /** The caps as the pods' manifests take them. */
        JobInputs.Bandwidth bandwidth() {
            return new JobInputs.Bandwidth(ingressBandwidth, egressBandwidth);
        }
    }

    private static List<String> known() {
        List<String> names =
                new ArrayList<>(Arrays.stream(JobKind.values()).map(JobKind::id).toList());
        names.add(Features.SSH);
        names.add(Features.HIGH_PRIORITY);
        return List.copyOf(names);
    }

    /** A platform default that names no feature, or a cap that is no rate, stops the start with the key to fix. */
    void checkDefaults(@Observes StartupEvent event) {
        Set<String> unknown = Features.unknown(KNOWN, personalOff());
        if (!unknown.isEmpty()) {
            throw new IllegalStateException("crater.jobs.personal-features-off names no feature: " + unknown
                    + "; the features are " + String.join(", ", KNOWN) + " (or none)");
        }
        Features.bandwidthProblem(config.ingressBandwidth()).ifPresent(p -> {
            throw new IllegalStateException("crater.jobs.ingress-bandwidth: " + p);
        });
        Features.bandwidthProblem(config.egressBandwidth()).ifPresent(p -> {
            throw new IllegalStateException("crater.jobs.egress-bandwidth: " + p);
        });
    }

    private Set<String> personalOff() {
        String v = config.personalFeaturesOff().trim();
        if (v.isEmpty() || Features.NONE.equals(v)) {
            return Set.of();
        }
        return Arrays.stream(v.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .collect(Collectors.toSet());
    }

    /** The settings in force for an account read as jobs see it. */
    EffectiveFeatures effective(AccountTargets.Target a) {
        Set<String> off = "personal".equals(a.kind()) ? personalOff() : Set.of();
        return new EffectiveFeatures(
                Features.effective(KNOWN, own(a.featuresJson()), off),
                Features.bandwidth(a.ingressBandwidth(), config.ingressBandwidth()),
                Features.bandwidth(a.egressBandwidth(), config.egressBandwidth()));
    }

    /** The settings in force for the account with this id, in the caller's session. */
    public Uni<EffectiveFeatures> effective(long accountId) {
        return accounts.byId(accountId).map(this::effective);
    }

    /** 403 {@code FeatureDisabled} when the feature is off in the account (its reason names both). */
    static void require(EffectiveFeatures e, String feature, String account) {
        Features.refusal(e.features(), feature, account).ifPresent(FeatureService::refuse);
    }

    /**
     * A submission of {@code kind} (at high priority when {@code highPriority}) into the account: 403 {@code
     * FeatureDisabled} when the account may not use the kind or high priority. Nothing has been written yet.
     */
    static void requireSubmission(EffectiveFeatures e, JobKind kind, boolean highPriority, String account) {
        require(e, kind.id(), account);
        if (highPriority) {
            require(e, Features.HIGH_PRIORITY, account);
        }
    }

    /** A shell into a pod of the account's job (SSH, the web terminal), refused when {@code ssh} is off. */
    Uni<Void> requireShell(long accountId, String account) {
        return effective(accountId)
                .invoke(e -> require(e, Features.SSH, account))
                .replaceWithVoid();
    }

    private static void refuse(Reason r) {
        throw new ApiException(
                403,
                "FeatureDisabled",
                "Forbidden",
                r.message() + ("ssh".equals(r.args().get("feature")) ? " (SSH and the web terminal)" : ""),
                List.of(r),
                null,
                null);
    }

    public Uni<AccountFeatures> get(String slug, Caller caller) {
        return Panache.withSession(() -> accounts.visible(slug, caller)).map(this::view);
    }

    /**
     * Replaces the account's own settings (platform admins): features it names take the given value (null: the
     * default again), caps are quantities of bits per second, {@code none}, or null for the platform's.
     */
    public Uni<AccountFeatures> put(String slug, AccountFeatures req, Caller caller) {
        if (!caller.platformAdmin()) {
            throw ApiException.forbidden(
                    "NotPlatformAdmin", "only platform admins set what an account's members may use");
        }
        if (req == null) {
            throw ApiException.badRequest("InvalidAccountFeatures", "a body is required", null);
        }
        Map<String, Boolean> own = new TreeMap<>();
        if (req.features() != null) {
            req.features().forEach((k, v) -> {
                if (v != null) {
                    own.put(k, v);
                }
            });
        }
        List<Problem.FieldError> errors = new ArrayList<>();
        for (String name : Features.unknown(
                KNOWN, req.features() == null ? Set.of() : req.features().keySet())) {
            errors.add(
                    new Problem.FieldError("features." + name, "no such feature: one of " + String.join(", ", KNOWN)));
        }
        Features.bandwidthProblem(req.ingressBandwidth())
                .ifPresent(p -> errors.add(new Problem.FieldError("ingressBandwidth", p)));
        Features.bandwidthProblem(req.egressBandwidth())
                .ifPresent(p -> errors.add(new Problem.FieldError("egressBandwidth", p)));
        if (!errors.isEmpty()) {
            throw ApiException.badRequest("InvalidAccountFeatures", "the account's features are not valid", errors);
        }
        String ingress = blankToNull(req.ingressBandwidth());
        String egress = blankToNull(req.egressBandwidth());
        Map<String, Object> after = new LinkedHashMap<>();
        after.put("features", own);
        after.put("ingressBandwidth", ingress);
        after.put("egressBandwidth", egress);
        return Panache.withTransaction(() -> accounts.visible(slug, caller)
                        .flatMap(before -> accounts.setFeatures(
                                        before.id(), own.isEmpty() ? null : Json.write(own), ingress, egress)
                                .flatMap(v -> audit.record(
                                        caller.actor(slug),
                                        "account.features",
                                        "account",
                                        slug,
                                        ownOf(view(before)),
                                        after))))
                .flatMap(v -> get(slug, caller));
    }

    private AccountFeatures view(AccountTargets.Target a) {
        return new AccountFeatures(own(a.featuresJson()), a.ingressBandwidth(), a.egressBandwidth(), effective(a));
    }

    private static Map<String, Object> ownOf(AccountFeatures f) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("features", f.features());
        m.put("ingressBandwidth", f.ingressBandwidth());
        m.put("egressBandwidth", f.egressBandwidth());
        return m;
    }

    private static Map<String, Boolean> own(String json) {
        if (json == null) {
            return Map.of();
        }
        try {
            return new TreeMap<>(MAPPER.readValue(json, new TypeReference<Map<String, Boolean>>() {}));
        } catch (java.io.IOException e) {
            throw new IllegalStateException("an account's stored features are not a JSON object of switches", e);
        }
    }

    private static String blankToNull(String v) {
        return v == null || v.isBlank() ? null : v.trim();
    }
}
