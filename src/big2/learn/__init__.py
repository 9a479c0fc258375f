"""Training the policy bots by self-play: the PPO trainer (:mod:`big2.learn.ppo`,
needs PyTorch) and its quick evaluation (:mod:`big2.learn.evaluate`). Playing a
trained network needs NumPy alone (:mod:`big2.bots.policy`)."""
