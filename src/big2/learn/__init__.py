"""Training the learned bots by self-play (:mod:`big2.learn.train`, needs
PyTorch), with NumPy actors (:mod:`big2.learn.rollouts`) and evaluation
(:mod:`big2.learn.evaluate`). Playing a trained network needs NumPy alone
(:mod:`big2.bots.qnet`, :mod:`big2.bots.learned`)."""
