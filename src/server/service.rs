//! The `MahjongService` handlers: convert → domain → convert, errors through
//! [`super::status`]. No rules logic lives here.

use std::sync::Arc;

use tonic::{Request, Response, Status};

use super::budget::{Budget, Charge, Held};
use super::client::{self, Client};
use super::compute::ComputePool;
use super::status::ApiError;
use crate::api::kit::house_rules::{self, KeptRules};
use crate::api::kit::query::ScoreQuery;
use crate::api::scoring::fast::query::BatchScoreHandsQuery;
use crate::api::scoring::fast::wire::{BatchScoreHandsReply, ScoreHandReply};
use crate::api::scoring::{self, BatchRejection};
use crate::api::{accounting, analysis, play};
use crate::config::Config;
use crate::pb;
use crate::server::stub::mahjong_service_server::MahjongService;

/// A batch is scored this many hands at a time, yielding to the runtime's other tasks in
/// between (about a millisecond of work in the full view), so that a long batch never holds
/// a worker long. Handing the work to another thread instead (`block_in_place` or
/// `spawn_blocking`) cost a quarter of the batch throughput in the load benchmark.
const BATCH_STEP_HANDS: usize = 256;

/// A batch of more hands than this is scored in parts of [`BATCH_STEP_HANDS`] hands, each a
/// task of its own, so that every worker thread takes parts (a long batch finishes in about
/// 1/cores of the time) and each part still holds a worker only as long as one step.
const PARALLEL_ABOVE_HANDS: usize = 2 * BATCH_STEP_HANDS;

/// Whether the runtime has more than one worker thread: on one, parts only cost (about 15%
/// in the `api` bench), so a batch is scored in order.
fn several_workers() -> bool {
    tokio::runtime::Handle::try_current().is_ok_and(|h| h.metrics().num_workers() > 1)
}

/// The referee: stateless, apart from the limits it enforces and the counter it keeps.
#[derive(Clone)]
pub struct Referee {
    max_batch_hands: usize,
    max_message_bytes: usize,
    /// Where settlement, penalties, standings and analysis run.
    compute: ComputePool,
    /// What answers are charged to until their clients take them.
    budget: Budget,
    /// `mahjong_hands_scored_total` of the recorder installed when the referee was made.
    hands_scored: metrics::Counter,
    /// The house rules built lately, served again to the calls that send the same.
    kept: Arc<KeptRules>,
}

impl std::fmt::Debug for Referee {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Referee")
            .field("max_batch_hands", &self.max_batch_hands)
            .field("max_message_bytes", &self.max_message_bytes)
            .finish_non_exhaustive()
    }
}

impl Referee {
    /// A referee with the limits of `config`, charging its answers to `budget`, running CPU
    /// work on `compute`, counting scored hands with the metrics recorder installed now
    /// (none: not counted).
    pub fn new(config: &Config, budget: Budget, compute: ComputePool) -> Self {
        Referee {
            budget,
            max_batch_hands: config.max_batch_hands,
            max_message_bytes: config.max_message_bytes,
            compute,
            hands_scored: crate::metrics::hands_scored(),
            kept: Arc::default(),
        }
    }
}

impl Referee {
    /// `ScoreHand`'s answer to `query` from `client`, counted, and its charge: what the handler
    /// answers, and what [`super::guard`] answers without tonic's unary machinery for a plain
    /// call (`guard::score_directly`).
    pub fn score(
        &self,
        query: &ScoreQuery,
        client: Option<&Arc<Client>>,
    ) -> Result<(ScoreHandReply, Charge), Status> {
        let response = scoring::score_hand(query, &self.kept).map_err(ApiError::InvalidHand)?;
        self.hands_scored.increment(1);
        let bytes = response.as_bytes().len();
        self.check_size(bytes)?;
        let charge = self
            .budget
            .take(client, bytes)
            .map_err(|_| self.budget.spent())?;
        Ok((response, charge))
    }

    /// `RESOURCE_EXHAUSTED` (`RESPONSE_TOO_LARGE`) for an answer of `bytes` encoded bytes
    /// above `--max-message-bytes`: the one response limit of every RPC, checked on the
    /// message before any compression (tonic's own check would come after gzip, or fail
    /// without details).
    fn check_size(&self, bytes: usize) -> Result<(), ApiError> {
        let limit = self.max_message_bytes;
        if bytes > limit {
            return Err(ApiError::ResponseTooLarge { bytes, limit });
        }
        Ok(())
    }

    /// The answer of `work` on the request, run in the [`ComputePool`]: its violations are
    /// `INVALID_REQUEST`, its answer is checked by [`Referee::answer`].
    async fn computed<Q, M>(
        &self,
        request: Request<Q>,
        work: fn(&Q, &KeptRules) -> Result<M, Vec<mcr::Violation>>,
    ) -> Result<Response<M>, Status>
    where
        Q: Send + 'static,
        M: prost::Message + Send + 'static,
    {
        let client = client_of(&request);
        let request = request.into_inner();
        let kept = Arc::clone(&self.kept);
        // The answer's size too is worked out in the pool: for a large answer it is a walk of
        // the whole message.
        let (response, bytes) = self
            .compute
            .run(client.as_deref(), move || {
                work(&request, &kept).map(|response| {
                    let bytes = response.encoded_len();
                    (response, bytes)
                })
            })
            .await
            .map_err(ApiError::InvalidRequest)?;
        self.sized(response, bytes, client.as_ref())
    }

    /// `response` as the answer to `client`'s call, if within [`Referee::check_size`].
    fn answer<M: prost::Message>(
        &self,
        response: M,
        client: Option<&Arc<Client>>,
    ) -> Result<Response<M>, Status> {
        let bytes = response.encoded_len();
        self.sized(response, bytes, client)
    }

    /// `response` of `bytes` encoded bytes as the answer to `client`'s call, if within
    /// [`Referee::check_size`] and the client's share of the budget of bytes held for clients
    /// (`--max-buffered-bytes`): the charge travels with it to the guard, which holds it until
    /// the client has taken it.
    fn sized<M>(
        &self,
        response: M,
        bytes: usize,
        client: Option<&Arc<Client>>,
    ) -> Result<Response<M>, Status> {
        self.check_size(bytes)?;
        let charge = self
            .budget
            .take(client, bytes)
            .map_err(|_| self.budget.spent())?;
        Ok(held(response, charge))
    }
}

impl Referee {
    /// The replies of `parts`, each scored in a task of its own, appended in order, their
    /// bytes charged to `charge` as each comes back; an entry prost cannot decode is the
    /// batch's error, whichever part finds it. The tasks are aborted
    /// when this future is dropped (the call's deadline passed, or its client went): a part
    /// already running finishes its few hundred hands, the others never start.
    async fn score_parts(
        &self,
        parts: Vec<scoring::BatchScoring>,
        charge: &mut Charge,
    ) -> Result<BatchScoreHandsReply, Status> {
        let mut tasks = PartTasks(
            parts
                .into_iter()
                .map(|part| tokio::spawn(async move { part.finish() }))
                .collect(),
        );
        let mut response: Option<BatchScoreHandsReply> = None;
        for task in &mut tasks.0 {
            let part = task
                .await
                .map_err(|e| Status::internal(format!("a part of the batch failed: {e}")))?
                .map_err(ApiError::from)?;
            self.budget
                .charge(charge, part.as_bytes().len())
                .map_err(|_| self.budget.spent())?;
            match &mut response {
                Some(response) => response.append(&part),
                None => response = Some(part),
            }
        }
        Ok(response.unwrap_or_default())
    }

    /// `response` to a batch as the call's answer, counted, if within
    /// [`Referee::check_size`]; `charge` holds `charged` of its bytes, the rest is charged now.
    fn batch_answer(
        &self,
        response: BatchScoreHandsReply,
        mut charge: Charge,
        charged: usize,
    ) -> Result<Response<BatchScoreHandsReply>, Status> {
        self.hands_scored
            .increment(u64::try_from(response.scored()).unwrap_or(u64::MAX));
        let bytes = response.as_bytes().len();
        self.check_size(bytes)?;
        self.budget
            .charge(&mut charge, bytes.saturating_sub(charged))
            .map_err(|_| self.budget.spent())?;
        Ok(held(response, charge))
    }
}

/// The tasks scoring a batch's parts, aborted when dropped (their answer is no longer
/// awaited).
struct PartTasks(Vec<tokio::task::JoinHandle<Result<BatchScoreHandsReply, BatchRejection>>>);

impl Drop for PartTasks {
    fn drop(&mut self) {
        for task in &self.0 {
            task.abort();
        }
    }
}

/// The client (connection) a call came on, where the server knows it.
fn client_of<T>(request: &Request<T>) -> Option<Arc<Client>> {
    client::peer_of(request.extensions()).map(|peer| Arc::clone(&peer.client))
}

/// `response` as an answer carrying `charge` (see [`Held`]).
fn held<M>(response: M, charge: Charge) -> Response<M> {
    let mut response = Response::new(response);
    response.extensions_mut().insert(Held::new(charge));
    response
}

#[tonic::async_trait]
impl MahjongService for Referee {
    async fn score_hand(
        &self,
        request: Request<ScoreQuery>,
    ) -> Result<Response<ScoreHandReply>, Status> {
        let (response, charge) = self.score(request.get_ref(), client_of(&request).as_ref())?;
        Ok(held(response, charge))
    }

    /// A malformed hand is this checker's normal answer: never an error status.
    async fn validate_hand(
        &self,
        request: Request<pb::ValidateHandRequest>,
    ) -> Result<Response<pb::ValidateHandResponse>, Status> {
        self.answer(
            scoring::validate_request(request.get_ref(), &self.kept),
            client_of(&request).as_ref(),
        )
    }

    async fn batch_score_hands(
        &self,
        request: Request<BatchScoreHandsQuery>,
    ) -> Result<Response<BatchScoreHandsReply>, Status> {
        let client = client_of(&request);
        let request = request.into_inner();
        let (hands, limit) = (request.len(), self.max_batch_hands);
        if hands > limit {
            // A message prost cannot decode says so first, as when it is not read at all.
            request
                .check()
                .map_err(BatchRejection::Malformed)
                .map_err(ApiError::from)?;
            return Err(ApiError::BatchTooLarge { hands, limit }.into());
        }
        // Otherwise an entry prost cannot decode is found when scoring reaches it, so a
        // deadline that passes first is what the call is answered with.
        let mut scoring =
            scoring::BatchScoring::new(request, &self.kept).map_err(ApiError::from)?;
        // The answer is charged as it grows, so that many large batches at once cannot hold
        // more than the budget between them.
        if hands > PARALLEL_ABOVE_HANDS && several_workers() {
            let mut charge = self.budget.charge_of(client.as_ref());
            let parts = scoring.parts(BATCH_STEP_HANDS);
            let response = self.score_parts(parts, &mut charge).await?;
            let charged = response.as_bytes().len();
            return self.batch_answer(response, charge, charged);
        }
        let mut charge = self.budget.charge_of(client.as_ref());
        let mut charged = 0;
        loop {
            let more = scoring.score(BATCH_STEP_HANDS).map_err(ApiError::from)?;
            let written = scoring.answered_bytes();
            self.budget
                .charge(&mut charge, written - charged)
                .map_err(|_| self.budget.spent())?;
            charged = written;
            if !more {
                break;
            }
            tokio::task::yield_now().await;
        }
        let response = scoring.finish().map_err(ApiError::from)?;
        self.batch_answer(response, charge, charged)
    }

    async fn list_fans(
        &self,
        request: Request<pb::ListFansRequest>,
    ) -> Result<Response<pb::ListFansResponse>, Status> {
        let response = scoring::list_fans(request.get_ref()).map_err(ApiError::InvalidRequest)?;
        self.answer(response, client_of(&request).as_ref())
    }

    async fn describe_ruleset(
        &self,
        request: Request<pb::DescribeRulesetRequest>,
    ) -> Result<Response<pb::DescribeRulesetResponse>, Status> {
        let response = house_rules::describe_ruleset(request.get_ref(), &self.kept)
            .map_err(ApiError::InvalidRequest)?;
        self.answer(response, client_of(&request).as_ref())
    }

    async fn parse_hand(
        &self,
        request: Request<pb::ParseHandRequest>,
    ) -> Result<Response<pb::ParseHandResponse>, Status> {
        let response = scoring::parse_hand(request.get_ref()).map_err(ApiError::InvalidRequest)?;
        self.answer(response, client_of(&request).as_ref())
    }

    async fn analyze_hand(
        &self,
        request: Request<pb::AnalyzeHandRequest>,
    ) -> Result<Response<pb::AnalyzeHandResponse>, Status> {
        self.computed(request, analysis::analyze_hand).await
    }

    async fn settle_hand(
        &self,
        request: Request<pb::SettleHandRequest>,
    ) -> Result<Response<pb::SettleHandResponse>, Status> {
        self.computed(request, accounting::settle_hand).await
    }

    async fn adjudicate_penalty(
        &self,
        request: Request<pb::AdjudicatePenaltyRequest>,
    ) -> Result<Response<pb::AdjudicatePenaltyResponse>, Status> {
        self.computed(request, accounting::adjudicate_penalty).await
    }

    async fn compute_standings(
        &self,
        request: Request<pb::ComputeStandingsRequest>,
    ) -> Result<Response<pb::ComputeStandingsResponse>, Status> {
        self.computed(request, accounting::compute_standings).await
    }

    async fn replay_hand(
        &self,
        request: Request<pb::ReplayHandRequest>,
    ) -> Result<Response<pb::ReplayHandResponse>, Status> {
        self.computed(request, play::replay_hand).await
    }

    async fn legal_actions(
        &self,
        request: Request<pb::LegalActionsRequest>,
    ) -> Result<Response<pb::LegalActionsResponse>, Status> {
        self.computed(request, play::legal_actions_of).await
    }

    async fn arbitrate_claims(
        &self,
        request: Request<pb::ArbitrateClaimsRequest>,
    ) -> Result<Response<pb::ArbitrateClaimsResponse>, Status> {
        self.computed(request, play::arbitrate_claims).await
    }

    async fn next_actions(
        &self,
        request: Request<pb::NextActionsRequest>,
    ) -> Result<Response<pb::NextActionsResponse>, Status> {
        self.computed(request, play::next_actions_of).await
    }

    async fn deal_hand(
        &self,
        request: Request<pb::DealHandRequest>,
    ) -> Result<Response<pb::DealHandResponse>, Status> {
        // One shuffle of 136 tiles: cheaper than a trip to the pool.
        let client = client_of(&request);
        let response = play::deal_hand(request.get_ref()).map_err(ApiError::InvalidRequest)?;
        let bytes = prost::Message::encoded_len(&response);
        self.sized(response, bytes, client.as_ref())
    }
}
