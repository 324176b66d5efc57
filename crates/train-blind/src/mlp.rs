//! The blind players' neural network, trained with candle on CPU: the 64 occupancy bits go
//! through dense layers with ReLU between them to 64·12 piece logits (softmax per square,
//! the loss counted on occupied squares only) and one logit of White to move (logistic
//! loss). The trained weights are exported into a [`BlindModel`], whose plain-Rust forward
//! pass the players run.

use crate::{TrainError, TrainResult};
use candle_core::{DType, Device, Tensor, Var, D};
use candle_nn::{AdamW, Module, Optimizer, ParamsAdamW};
use eloworld_players::blind::dataset::Sample;
use eloworld_players::blind::model::{class_of, CLASSES, INPUTS, OUTPUTS};
use eloworld_players::blind::{BlindModel, Dense};
use std::time::Instant;

/// How to train the network.
#[derive(Clone, Debug)]
pub struct Training {
    /// Hidden layer widths.
    pub hidden: Vec<usize>,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per optimiser step.
    pub batch: usize,
    /// AdamW's starting learning rate (decayed linearly to a tenth of it).
    pub learning_rate: f64,
    /// AdamW's weight decay.
    pub weight_decay: f64,
    /// Seeds the initial weights and the order of positions.
    pub seed: u64,
}

/// A small deterministic generator (SplitMix64) for initial weights and shuffling.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform number in [-1, 1).
    fn symmetric(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = (self.next() % (i as u64 + 1)) as usize;
            items.swap(i, j);
        }
    }
}

/// The network being trained: per layer its weight (`[out, in]`) and bias variables.
pub struct Net {
    layers: Vec<(Var, Var)>,
    positions: u32,
}

impl Net {
    /// A network of the given widths (64 in, [`OUTPUTS`] out), weights uniform in
    /// ±1/√inputs as is usual for dense layers.
    ///
    /// # Errors
    /// candle's, when a layer cannot be made.
    pub fn new(hidden: &[usize], seed: u64) -> TrainResult<Net> {
        let widths: Vec<usize> = std::iter::once(INPUTS)
            .chain(hidden.iter().copied())
            .chain(std::iter::once(OUTPUTS))
            .collect();
        let mut rng = SplitMix(seed);
        let mut layers = Vec::new();
        for w in widths.windows(2) {
            let bound = 1.0 / (w[0] as f32).sqrt();
            let weight: Vec<f32> = (0..w[0] * w[1]).map(|_| bound * rng.symmetric()).collect();
            let bias: Vec<f32> = (0..w[1]).map(|_| bound * rng.symmetric()).collect();
            layers.push((
                Var::from_vec(weight, (w[1], w[0]), &Device::Cpu)?,
                Var::from_vec(bias, w[1], &Device::Cpu)?,
            ));
        }
        Ok(Net {
            layers,
            positions: 0,
        })
    }

    /// Candle's forward pass: `[batch, 64]` occupancy bits to `[batch, OUTPUTS]` logits.
    ///
    /// # Errors
    /// candle's, when `x` is not `[batch, 64]`.
    pub fn forward(&self, x: &Tensor) -> candle_core::Result<Tensor> {
        let mut x = x.clone();
        for (i, (w, b)) in self.layers.iter().enumerate() {
            let layer = candle_nn::Linear::new(w.as_tensor().clone(), Some(b.as_tensor().clone()));
            x = layer.forward(&x)?;
            if i + 1 < self.layers.len() {
                x = x.relu()?;
            }
        }
        Ok(x)
    }

    /// The trained weights as a model file's network (weights turned input-major).
    ///
    /// # Errors
    /// candle's, or layers that do not fit together.
    pub fn export(&self) -> TrainResult<BlindModel> {
        let mut layers = Vec::new();
        for (w, b) in &self.layers {
            let t = w.as_tensor().t()?.contiguous()?;
            let (inputs, _) = t.dims2()?;
            let weights: Vec<f32> = t.flatten_all()?.to_vec1()?;
            let bias: Vec<f32> = b.as_tensor().to_vec1()?;
            layers.push(Dense::new(inputs, weights, bias)?);
        }
        Ok(BlindModel::mlp(self.positions, layers)?)
    }
}

/// Training positions as flat arrays.
struct Encoded {
    /// `[n][64]` occupancy bits.
    x: Vec<f32>,
    /// `[n][64]` the class on each square (0 on empty squares, which the mask removes).
    class: Vec<u32>,
    /// `[n][64]` 1 on occupied squares.
    occupied: Vec<f32>,
    /// `[n]` 1 when White is to move.
    white: Vec<f32>,
}

fn encode(samples: &[&Sample]) -> Encoded {
    let n = samples.len();
    let mut e = Encoded {
        x: vec![0.0; n * INPUTS],
        class: vec![0; n * INPUTS],
        occupied: vec![0.0; n * INPUTS],
        white: Vec::with_capacity(n),
    };
    for (i, s) in samples.iter().enumerate() {
        for (sq, piece) in s.board.clone() {
            let k = i * INPUTS + usize::from(sq);
            e.x[k] = 1.0;
            e.occupied[k] = 1.0;
            e.class[k] = class_of(piece) as u32;
        }
        e.white
            .push(f32::from(u8::from(s.turn == shakmaty::Color::White)));
    }
    e
}

/// The loss of a batch: the pieces' cross-entropy averaged over occupied squares plus the
/// side to move's logistic loss averaged over positions.
fn loss(net: &Net, e: &Encoded, rows: &[usize]) -> candle_core::Result<Tensor> {
    let b = rows.len();
    let gather = |src: &[f32]| -> Vec<f32> {
        rows.iter()
            .flat_map(|&r| src[r * INPUTS..(r + 1) * INPUTS].iter().copied())
            .collect()
    };
    let dev = Device::Cpu;
    let x = Tensor::from_vec(gather(&e.x), (b, INPUTS), &dev)?;
    let occupied = Tensor::from_vec(gather(&e.occupied), (b, INPUTS), &dev)?;
    let class: Vec<u32> = rows
        .iter()
        .flat_map(|&r| e.class[r * INPUTS..(r + 1) * INPUTS].iter().copied())
        .collect();
    let class = Tensor::from_vec(class, (b, INPUTS, 1), &dev)?;
    let white: Vec<f32> = rows.iter().map(|&r| e.white[r]).collect();
    let white = Tensor::from_vec(white, b, &dev)?;
    let out = net.forward(&x)?;
    let pieces = out
        .narrow(1, 0, INPUTS * CLASSES)?
        .reshape((b, INPUTS, CLASSES))?;
    let log_p = candle_nn::ops::log_softmax(&pieces, D::Minus1)?
        .gather(&class, 2)?
        .squeeze(2)?;
    let piece_loss = (log_p * &occupied)?
        .sum_all()?
        .neg()?
        .broadcast_div(&occupied.sum_all()?.clamp(1.0, f64::MAX)?)?;
    // log(1 + e^z) − y·z, computed as max(z, 0) − y·z + log(1 + e^−|z|).
    let z = out.narrow(1, OUTPUTS - 1, 1)?.squeeze(1)?;
    let turn_loss = ((z.relu()? - (&z * &white)?)?
        + z.abs()?.neg()?.exp()?.affine(1.0, 1.0)?.log()?)?
    .mean_all()?;
    piece_loss + turn_loss
}

/// Trains a network on `train` and returns it; `report` hears a line per epoch.
///
/// # Errors
/// No training position, a batch or epochs of 0, or a failure of candle's.
pub fn train(train: &[&Sample], t: &Training, mut report: impl FnMut(&str)) -> TrainResult<Net> {
    if train.is_empty() {
        return Err(TrainError::Invalid("no training position".into()));
    }
    if t.batch == 0 || t.epochs == 0 {
        return Err(TrainError::Invalid(
            "--batch and --epochs must be positive".into(),
        ));
    }
    let mut net = Net::new(&t.hidden, t.seed)?;
    net.positions = u32::try_from(train.len()).unwrap_or(u32::MAX);
    let e = encode(train);
    let vars: Vec<Var> = net
        .layers
        .iter()
        .flat_map(|(w, b)| [w.clone(), b.clone()])
        .collect();
    let mut opt = AdamW::new(
        vars,
        ParamsAdamW {
            lr: t.learning_rate,
            weight_decay: t.weight_decay,
            ..ParamsAdamW::default()
        },
    )?;
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut rng = SplitMix(t.seed ^ 0x5eed);
    let steps_per_epoch = train.len().div_ceil(t.batch);
    let total = (steps_per_epoch * t.epochs) as f64;
    let mut step = 0usize;
    for epoch in 1..=t.epochs {
        let started = Instant::now();
        rng.shuffle(&mut order);
        let mut sum = 0.0f64;
        for rows in order.chunks(t.batch) {
            opt.set_learning_rate(t.learning_rate * (1.0 - 0.9 * step as f64 / total));
            let l = loss(&net, &e, rows)?;
            sum += f64::from(l.to_dtype(DType::F32)?.to_scalar::<f32>()?);
            opt.backward_step(&l)?;
            step += 1;
        }
        report(&format!(
            "epoch {epoch}/{}: training loss {:.4} ({:.1} s)",
            t.epochs,
            sum / steps_per_epoch as f64,
            started.elapsed().as_secs_f64()
        ));
    }
    Ok(net)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Bitboard, Board};

    #[test]
    fn the_exported_forward_pass_equals_candles() {
        let net = Net::new(&[48, 32], 7).expect("net");
        let model = net.export().expect("export");
        let mut rng = SplitMix(3);
        let masks = [
            Board::default().occupied(),
            Bitboard::EMPTY,
            Bitboard::FULL,
            Bitboard(rng.next()),
            Bitboard(rng.next() & rng.next()),
        ];
        for mask in masks {
            let x: Vec<f32> = (0..64)
                .map(|s| f32::from(u8::from(mask.contains(shakmaty::Square::new(s)))))
                .collect();
            let x = Tensor::from_vec(x, (1, INPUTS), &Device::Cpu).expect("tensor");
            let theirs: Vec<f32> = net
                .forward(&x)
                .and_then(|y| y.squeeze(0))
                .and_then(|y| y.to_vec1())
                .expect("candle");
            let ours = model.network_outputs(mask).expect("a network");
            assert_eq!(ours.len(), OUTPUTS);
            for (a, b) in ours.iter().zip(&theirs) {
                assert!((a - b).abs() < 1e-5, "{mask:?}: {a} vs {b}");
            }
        }
    }

    #[test]
    fn training_learns_two_positions_by_heart_and_the_model_round_trips() {
        let boards = [
            Board::default(),
            Board::from_ascii_board_fen(b"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR")
                .expect("fen"),
        ];
        let samples: Vec<Sample> = boards
            .iter()
            .enumerate()
            .map(|(i, b)| Sample {
                game: 0,
                board: b.clone(),
                turn: if i == 0 {
                    shakmaty::Color::White
                } else {
                    shakmaty::Color::Black
                },
            })
            .collect();
        let refs: Vec<&Sample> = samples.iter().collect();
        let mut lines = Vec::new();
        let t = Training {
            hidden: vec![32],
            epochs: 60,
            batch: 2,
            learning_rate: 1e-2,
            weight_decay: 0.0,
            seed: 1,
        };
        let net = train(&refs, &t, |l| lines.push(l.to_owned())).expect("train");
        assert_eq!(lines.len(), 60);
        let model = net.export().expect("export");
        assert_eq!(model.positions(), 2);
        // Two positions learnt by heart: both predicted exactly, side to move included.
        for s in &samples {
            let p = model
                .unblind(s.board.occupied(), eloworld_players::blind::KingRule::Free)
                .expect("prediction");
            assert_eq!((&p.board, p.turn), (&s.board, s.turn));
        }
        let again = BlindModel::from_bytes(&model.to_bytes()).expect("reads");
        assert_eq!(again, model);
    }
}
