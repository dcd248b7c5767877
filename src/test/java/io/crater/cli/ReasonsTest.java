package io.crater.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Admission reasons and suggestions in Chinese from their code, numbers and args, with the console's templates. */
class ReasonsTest {

    static final long GIB_MILLI = (1L << 30) * 1000;
    static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
    static final Problems ZH = new Problems(new Messages(Locale.SIMPLIFIED_CHINESE));
    static final Problems EN = new Problems(new Messages(Locale.ENGLISH));

    static Map<String, Object> reason(String code, String message, Map<String, ?> numbers, Map<String, ?> args) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("code", code);
        r.put("message", message);
        r.put("numbers", numbers);
        r.put("args", args);
        return r;
    }

    static Arguments row(String name, Map<String, Object> reason, String expected) {
        return Arguments.of(name, reason, expected);
    }

    static Stream<Arguments> chinese() {
        Map<String, Object> quota = Map.of("requested", 4000, "used", 6000, "effectiveMax", 8000, "granted", 0);
        return Stream.of(
                row(
                        "account quota, accelerator model by its key",
                        reason("AccountQuotaExceeded", "en", quota, Map.of("resource", "nvidia-a100-80gb")),
                        "账户的 nvidia-a100-80gb 用量将达到 10；其上限为 8（已用 6，本次请求 4）"),
                row(
                        "account quota with a grant, memory in GiB",
                        reason(
                                "AccountQuotaExceeded",
                                "en",
                                Map.of(
                                        "requested", 16 * GIB_MILLI,
                                        "used", 32 * GIB_MILLI,
                                        "effectiveMax", 40 * GIB_MILLI,
                                        "granted", 8 * GIB_MILLI),
                                Map.of("resource", "memory")),
                        "账户的 内存 用量将达到 48 GiB；其上限为 40 GiB，含临时授予 8 GiB（已用 32 GiB，本次请求 16 GiB）"),
                row(
                        "member limit, cpu in cores, resource quoted by the sentence",
                        reason(
                                "MemberLimitReached",
                                "you would use 4 of cpu in this account",
                                Map.of("requested", 500, "used", 3500, "limit", 4000),
                                Map.of()),
                        "你在该账户的 CPU 用量将达到 4；你的限额为 4（已用 3.5，本次请求 0.5）"),
                row(
                        "member job limit",
                        reason("MemberLimitReached", "en", Map.of("jobs", 3, "limit", 3), Map.of()),
                        "你有 3 个运行中或已准入的作业；你的限额为 3"),
                row(
                        "member session limit",
                        reason("MemberLimitReached", "en", Map.of("sessions", 2, "limit", 2), Map.of()),
                        "你有 2 个交互式会话；你的限额为 2"),
                row(
                        "pod larger than any node",
                        reason(
                                "PodLargerThanAnyNode",
                                "a pod asks for 16 nvidia-a100-80gb but the largest matching node offers 8",
                                Map.of("requested", 16000, "largestNode", 8000),
                                Map.of()),
                        "一个 Pod 请求 nvidia-a100-80gb 16，但最大的匹配节点只有 8"),
                row(
                        "larger than the fleet",
                        reason(
                                "LargerThanFleet",
                                "en",
                                Map.of("requested", 1_250_000, "fleet", 1_024_000),
                                Map.of("resource", "cpu")),
                        "作业总共请求 CPU 1250，但匹配的节点合计只有 1024"),
                row(
                        "insufficient capacity",
                        reason("InsufficientCapacity", "en", Map.of("placed", 1, "pods", 4, "nodes", 3), Map.of()),
                        "空闲资源不足：目前 3 个节点上只能放下 4 个 Pod 中的 1 个"),
                row(
                        "unschedulable, short of resources in key order",
                        reason(
                                "Unschedulable",
                                "en",
                                Map.of(
                                        "placed", 1,
                                        "pods", 4,
                                        "nodes", 3,
                                        "insufficient.memory", 1,
                                        "insufficient.cpu", 2),
                                Map.of()),
                        "空闲资源不足：目前 3 个节点上只能放下 4 个 Pod 中的 1 个（2 个节点的 CPU 不足, 1 个节点的 内存 不足）"),
                row(
                        "fragmentation",
                        reason(
                                "Fragmentation",
                                "en",
                                Map.of("largestFreeBlock", 2000, "needs", 4000, "totalFree", 6000),
                                Map.of("resource", "nvidia-h100")),
                        "空闲资源碎片化：最合适的节点上只有 2 个 GPU 空闲，而每个 Pod 需要 4 个（总共空闲 6 个）"),
                row(
                        "capacity held, durations by their two largest units",
                        reason(
                                "CapacityHeldForOlderJob",
                                "en",
                                Map.of("waitedSeconds", 7140, "toleranceSeconds", 93600),
                                Map.of()),
                        "所需资源正为一个已等待 1 小时 59 分钟的较早作业保留（作业等待超过 1 天 2 小时后，较小的作业不再能插到它前面）"),
                row(
                        "creating objects",
                        reason("CreatingObjects", "en", Map.of(), Map.of()),
                        "已准入；正在创建 Volcano Job 和 Pod"),
                row(
                        "volcano queue full",
                        reason("VolcanoQueueFull", "en", Map.of(), Map.of()),
                        "已准入，但账户的 Volcano 队列暂时没有空间"),
                row("invalid spec", reason("InvalidSpec", "en", Map.of(), Map.of()), "保存的作业规格已不再通过检查"),
                row(
                        "gang waiting",
                        reason("GangWaiting", "en", Map.of("placed", 2, "total", 4), Map.of()),
                        "4 个 Pod 中已放置 2 个；所有 Pod 必须同时启动"),
                row(
                        "image pulling, for ten minutes",
                        reason(
                                "ImagePulling",
                                "en",
                                Map.of("sinceEpochSeconds", NOW.getEpochSecond() - 600),
                                Map.of("image", "pytorch:2.4")),
                        "正在拉取镜像 pytorch:2.4（已持续 10 分钟）"),
                row(
                        "image pulling, image quoted by the sentence",
                        reason(
                                "ImagePulling",
                                "pod p-0 is pulling image cuda:12 since 11:59",
                                Map.of("sinceEpochSeconds", NOW.getEpochSecond() - 20),
                                Map.of()),
                        "正在拉取镜像 cuda:12（已持续 不到 1 分钟）"),
                row(
                        "image pulling, no image named",
                        reason(
                                "ImagePulling",
                                "pulling",
                                Map.of("sinceEpochSeconds", NOW.getEpochSecond() - 3 * 86400 - 3600),
                                Map.of()),
                        "正在拉取容器镜像（已持续 3 天 1 小时）"),
                row(
                        "image pull failed",
                        reason(
                                "ImagePullFailed",
                                "en",
                                Map.of(),
                                Map.of("image", "foo:1", "detail", "manifest unknown")),
                        "无法拉取镜像 foo:1：manifest unknown"),
                row(
                        "image pull failed, from the sentence",
                        reason("ImagePullFailed", "image foo:1 cannot be pulled: not found ", Map.of(), Map.of()),
                        "无法拉取镜像 foo:1：not found"),
                row(
                        "image pull failed, nothing named",
                        reason("ImagePullFailed", "", Map.of(), Map.of()),
                        "作业的某个镜像无法拉取"),
                row(
                        "volume mount failed",
                        reason("VolumeMountFailed", "en", Map.of(), Map.of("detail", "pvc data not found")),
                        "存储卷无法挂载：pvc data not found"),
                row(
                        "volume mount failed, nothing said",
                        reason("VolumeMountFailed", " ", Map.of(), Map.of()),
                        "作业的某个存储卷无法挂载"),
                row(
                        "node not ready",
                        reason("NodeNotReady", "en", Map.of(), Map.of("pod", "p-0", "node", "a1")),
                        "Pod p-0 所在的节点 a1 未就绪"),
                row(
                        "node not ready, from the sentence",
                        reason("NodeNotReady", "pod p-1 is on node b2, which is not ready", Map.of(), Map.of()),
                        "Pod p-1 所在的节点 b2 未就绪"),
                row(
                        "node not ready, nothing named",
                        reason("NodeNotReady", "", Map.of(), Map.of()),
                        "作业的 Pod 所在的某个节点未就绪"),
                row(
                        "waits for jobs without a time limit",
                        reason("WaitsForJobsWithoutTimeLimit", "en", Map.of("jobs", 2), Map.of()),
                        "有 2 个没有时间限制的运行中作业挡在前面，其中一些结束之前它无法开始"),
                row(
                        "cannot start on an idle cluster, because of the account quota",
                        reason(
                                "CannotStartOnIdleCluster",
                                "en",
                                quota,
                                Map.of("cause", "AccountQuotaExceeded", "resource", "nvidia-a100-80gb")),
                        "即使所有运行中的作业都结束，它按现在的规格也无法开始：账户的 nvidia-a100-80gb 用量将达到 10；其上限为 8（已用 6，本次请求 4）"),
                row(
                        "cannot start on an idle cluster, cause not worded",
                        reason("CannotStartOnIdleCluster", "en", Map.of(), Map.of("cause", "SomethingNew")),
                        "即使所有运行中的作业都结束，它按现在的规格也无法开始：配额、限额或节点不允许"),
                row(
                        "account expired",
                        reason(
                                "AccountExpired",
                                "en",
                                Map.of(),
                                Map.of("account", "ml", "expiredAt", "2026-11-30T00:00:00Z")),
                        "账户 ml 已于 2026-11-30 到期；其中不再启动新作业"),
                row(
                        "model not approved",
                        reason("ModelNotApproved", "en", Map.of(), Map.of("model", "nvidia-h100")),
                        "nvidia-h100 受限：请先在该账户中申请使用权限（审批）"),
                row(
                        "waits for budget",
                        reason("WaitsForBudget", "en", Map.of(), Map.of("periodEnds", "2027-01-01T00:00:00Z")),
                        "要等账户预算允许时才能开始：充值、提高预算或进入下一周期（2027-01-01 00:00 UTC 起）"),
                row(
                        "budget exhausted, money from micro-units",
                        reason(
                                "BudgetExhausted",
                                "en",
                                Map.of("projectedMicros", 12_500_000, "remainingMicros", -3_000_000),
                                Map.of("currency", "CNY", "periodEnds", "2027-01-01T00:00:00Z")),
                        "该作业运行到时间上限预计花费 12.5 CNY；账户在 2027-01-01 00:00 UTC 之前只剩 -3 CNY"),
                row(
                        "allotment exhausted, with the allotment's amount",
                        reason(
                                "AllotmentExhausted",
                                "en",
                                Map.of(
                                        "projectedMicros",
                                        5_120_000,
                                        "remainingMicros",
                                        3_000_000,
                                        "allotmentMicros",
                                        50_000_000),
                                Map.of("currency", "points", "periodEnds", "2027-01-01T00:00:00Z")),
                        "该作业运行到时间上限预计花费 5.12 points；其所有者的额度 50 points 在 2027-01-01 00:00 UTC 之前只剩 3 points"),
                row(
                        "waits for the owner's allotment",
                        reason(
                                "WaitsForAllotment",
                                "en",
                                Map.of("remainingMicros", 3_000_000),
                                Map.of("currency", "points", "periodEnds", "2027-01-01T00:00:00Z")),
                        "要等所有者的额度允许时才能开始：提高额度、取消额度或进入下一周期（2027-01-01 00:00 UTC 起）"),
                row(
                        "too many jobs ahead",
                        reason("TooManyJobsAhead", "en", Map.of("jobsAhead", 500, "decisions", 200), Map.of()),
                        "排在它前面的作业太多（500 个），无法在 200 次准入判定内推演出开始时间"),
                row(
                        "beyond the horizon",
                        reason("BeyondHorizon", "en", Map.of("horizonDays", 30), Map.of()),
                        "预计要在 30 天之后才能开始"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("chinese")
    void wordsAReasonInChineseWithItsFigures(String name, Map<String, Object> reason, String expected) {
        assertThat(Reasons.chinese().reason(reason, NOW)).isEqualTo(expected);
    }

    @Test
    void problemsKeepTheCodeAfterTheChineseSentence() {
        Map<String, Object> r = reason(
                "GangWaiting",
                "2 of 4 pods placed; all must start together",
                Map.of("placed", 2, "total", 4),
                Map.of());
        assertThat(ZH.reason(r)).isEqualTo("4 个 Pod 中已放置 2 个；所有 Pod 必须同时启动 [GangWaiting]");
        assertThat(ZH.describe(Map.of("detail", "拒绝", "code", "AdmissionRejected", "reasons", List.of(r))))
                .isEqualTo("拒绝 (AdmissionRejected)\n  - 4 个 Pod 中已放置 2 个；所有 Pod 必须同时启动 [GangWaiting]");
    }

    static Stream<Arguments> fallbacks() {
        return Stream.of(
                row(
                        "a figure missing",
                        reason(
                                "AccountQuotaExceeded",
                                "account would use 10 of nvidia-a100-80gb; its max is 8",
                                Map.of("requested", 4000, "used", 6000),
                                Map.of()),
                        "account would use 10 of nvidia-a100-80gb; its max is 8 [AccountQuotaExceeded]"),
                row(
                        "no resource named",
                        reason("PodLargerThanAnyNode", "too big", Map.of("requested", 1, "largestNode", 0), Map.of()),
                        "too big [PodLargerThanAnyNode]"),
                row(
                        "an unknown code",
                        reason("SomethingNew", "something new happened", Map.of("x", 1), Map.of()),
                        "something new happened [SomethingNew]"),
                row(
                        "a budget without its period",
                        reason("WaitsForBudget", "waits for budget", Map.of(), Map.of()),
                        "waits for budget [WaitsForBudget]"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fallbacks")
    void fallsBackToTheServersSentence(String name, Map<String, Object> reason, String expected) {
        assertThat(ZH.reason(reason)).isEqualTo(expected);
    }

    @Test
    void englishIsTheServersSentenceAsBefore() {
        Map<String, Object> r = reason(
                "AccountQuotaExceeded",
                "account would use 10 of nvidia-a100-80gb; its max is 8 (6 in use, you ask for 4)",
                Map.of("requested", 4000, "used", 6000, "effectiveMax", 8000),
                Map.of("resource", "nvidia-a100-80gb"));
        assertThat(EN.reason(r))
                .isEqualTo(
                        "account would use 10 of nvidia-a100-80gb; its max is 8 (6 in use, you ask for 4) [AccountQuotaExceeded]");
        Map<String, Object> s = Map.of(
                "code", "RunAsBackfill", "message", "Run it as backfill.", "change", Map.of(), "numbers", Map.of());
        assertThat(EN.suggestion(s)).isEqualTo("Run it as backfill.");
    }

    static Stream<Arguments> suggestions() {
        return Stream.of(
                Arguments.of(
                        Map.of(
                                "code",
                                "FewerAccelerators",
                                "message",
                                "en",
                                "change",
                                Map.of("resources.accelerators", 2),
                                "numbers",
                                Map.of("requested", 4)),
                        "每个 Pod 使用 2 个而不是 4 个加速器，它就能立即开始。"),
                Arguments.of(
                        Map.of(
                                "code",
                                "OtherModel",
                                "message",
                                "en",
                                "change",
                                Map.of("resources.acceleratorModel", "nvidia-h100"),
                                "numbers",
                                Map.of("accelerators", 2)),
                        "每个 Pod 2 个 nvidia-h100 现在空闲：换用该型号，它就能立即开始。"),
                Arguments.of(
                        Map.of(
                                "code",
                                "RequestGrant",
                                "message",
                                "en",
                                "change",
                                Map.of("resource", "memory", "amount", "16Gi"),
                                "numbers",
                                Map.of()),
                        "为账户临时授予 16Gi 的 memory 就足以提高其配额（由账户管理员审批）。"),
                Arguments.of(
                        Map.of("code", "RunAsBackfill", "message", "en", "change", Map.of(), "numbers", Map.of()),
                        "集群现在有空闲资源：作为回填作业（不占配额，有配额内作业需要资源时最先被停止）可以立即启动。"),
                Arguments.of(
                        Map.of(
                                "code",
                                "FewerAccelerators",
                                "message",
                                "With fewer it would start.",
                                "change",
                                Map.of(),
                                "numbers",
                                Map.of("requested", 4)),
                        "With fewer it would start."));
    }

    @ParameterizedTest
    @MethodSource("suggestions")
    void wordsASuggestionInChinese(Map<String, Object> suggestion, String expected) {
        assertThat(ZH.suggestion(suggestion)).isEqualTo(expected);
    }

    @Test
    void amountsAndMoneyAsTheConsolePrintsThem() {
        assertThat(ReasonFigures.amount("cpu", 1250)).isEqualTo("1.25");
        assertThat(ReasonFigures.amount("nvidia-a100-80gb", 500)).isEqualTo("0.5");
        assertThat(ReasonFigures.amount("memory", 1.5 * GIB_MILLI)).isEqualTo("1.5 GiB");
        assertThat(ReasonFigures.money(1_000_001)).isEqualTo("1.000001");
        assertThat(ReasonFigures.money(-250_000)).isEqualTo("-0.25");
    }
}
