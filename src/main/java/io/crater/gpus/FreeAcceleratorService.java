package io.crater.gpus;

import io.crater.account.AccountService;
import io.crater.account.QuotaService;
import io.crater.cluster.AcceleratorCatalogue;
import io.crater.cluster.AcceleratorModel;
import io.crater.cluster.ClusterCache;
import io.crater.cluster.ClusterService;
import io.crater.cluster.ClusterViews;
import io.crater.identity.Caller;
import io.crater.job.JobAdmissions;
import io.crater.platform.Unis;
import io.crater.policy.AdmissionRound;
import io.crater.policy.NodeCapacity;
import io.crater.policy.QuotaMath;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Where accelerators are free now and how many the caller's accounts may still take (docs/monitoring.md, free
 * accelerators). Free is admission's view: nodes' allocatable less what bound pods request and what admitted jobs
 * not yet bound have reserved, on nodes that take pods; quota is the accounts' effective max and the caller's member
 * limits.
 */
@ApplicationScoped
public class FreeAcceleratorService {

    @Inject
    AcceleratorCatalogue catalogue;

    @Inject
    ClusterService cluster;

    @Inject
    ClusterCache cache;

    @Inject
    JobAdmissions admissions;

    @Inject
    AccountService accounts;

    @Inject
    QuotaService quotas;

    public Uni<FreeAcceleratorViews.FreeAccelerators> free(Caller caller) {
        long user = caller.userId();
        return Panache.withSession(() -> admissions.reservations().flatMap(reservations -> {
            List<FreeAccelerators.NodeCards> nodes = nodes(AdmissionRound.reserve(cache.capacities(), reservations));
            return accounts.accountIdsOf(user)
                    .flatMap(ids -> accounts.slugs(ids)
                            .flatMap(slugs -> quotas.memberUsages().flatMap(usages -> rooms(ids, slugs, usages, user))))
                    .map(rooms -> FreeAccelerators.build(catalogue.models(), nodes, rooms));
        }));
    }

    /** Each node's cards of its catalogue model with the free ones once the reservations took their room. */
    private List<FreeAccelerators.NodeCards> nodes(List<NodeCapacity> reserved) {
        Map<String, NodeCapacity> byName =
                reserved.stream().collect(Collectors.toMap(NodeCapacity::name, Function.identity(), (a, b) -> a));
        Map<String, AcceleratorModel> models =
                catalogue.models().stream().collect(Collectors.toMap(AcceleratorModel::key, Function.identity()));
        List<FreeAccelerators.NodeCards> out = new ArrayList<>();
        for (ClusterViews.NodeView n : cluster.nodes()) {
            ClusterViews.NodeAccelerator a = n.accelerator();
            AcceleratorModel model = a == null ? null : models.get(a.model());
            if (model == null) {
                continue; // no accelerator, or one no catalogue model covers: nothing can request it
            }
            NodeCapacity cap = byName.get(n.name());
            long free =
                    cap == null || !n.schedulable() ? 0 : Math.max(0, cap.free().get(a.resource()) / 1000);
            out.add(new FreeAccelerators.NodeCards(
                    n.name(),
                    model.key(),
                    a.total(),
                    Math.min(free, a.total()),
                    FreeAccelerators.memoryMiB(a.resource(), n.labels(), model.memoryMiB()),
                    n.schedulable()));
        }
        return out;
    }

    /** The caller's accounts with their quota lines and the caller's limits and holdings in each. */
    private Uni<List<FreeAccelerators.Account>> rooms(
            List<Long> ids, Map<Long, String> slugs, Map<String, QuotaMath.MemberUsage> usages, long user) {
        List<FreeAccelerators.Account> out = new ArrayList<>();
        return Unis.sequentially(
                        ids.stream().filter(slugs::containsKey).toList(),
                        id -> quotas.snapshot(id)
                                .flatMap(lines -> quotas.effectiveLimits(id, user)
                                        .invoke(limits -> out.add(new FreeAccelerators.Account(
                                                slugs.get(id),
                                                lines,
                                                limits,
                                                usages.getOrDefault(id + "/" + user, QuotaMath.MemberUsage.NONE)
                                                        .resources())))))
                .map(v -> out);
    }
}
