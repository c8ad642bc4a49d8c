pub mod branches;
