pub mod sprout_r_out;
